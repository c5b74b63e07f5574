"""Bots read the game only through the engine's public API (docs/design.md): no private
module, no private field of a deal, no copy of a rule."""

import ast
from pathlib import Path

import games.engine
from games.engine import Deal

BOTS = Path(games.engine.__file__).parent.parent / "bots"
# Deal attributes the engine's public API names; every other slot is the engine's own business.
PUBLIC_FIELDS = {"rules", "trump", "attacker", "defender", "to_act", "limit", "loser", "losing_team"}
PRIVATE_FIELDS = set(Deal.__slots__) - PUBLIC_FIELDS


def _modules():
    return sorted(BOTS.glob("*.py"))


def test_bots_import_only_the_engine_package_itself():
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
                if node.module == "games.kept":  # the one cache helper, a leaf below the engine
                    continue
                assert node.module == "games.engine", f"{path.name} imports {node.module}"
                for alias in node.names:
                    assert alias.name in games.engine.__all__, f"{path.name} imports {alias.name}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("games."), f"{path.name} imports {alias.name}"


def test_bots_read_no_private_field_of_a_deal():
    for path in _modules():
        tree = ast.parse(path.read_text(), str(path))
        used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert not used & PRIVATE_FIELDS, f"{path.name} reads {sorted(used & PRIVATE_FIELDS)}"
        names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                 and node.attr.startswith("_") and not node.attr.startswith("__")
                 and not (isinstance(node.value, ast.Name) and node.value.id == "self")}
        assert not names, f"{path.name} reads private names {sorted(names)}"


def test_the_check_would_catch_a_private_read():
    tree = ast.parse("def f(deal):\n    return deal.six_right, deal.hands[0]\n")
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert used & PRIVATE_FIELDS == {"six_right", "hands"}
