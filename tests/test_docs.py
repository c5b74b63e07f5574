"""The documents hold: the README stays a newcomer's page, and what docs/ says of the code's
shape is checked against the code (the layer diagram against the layers contract, every
document the README links to exists)."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README_MAX_LINES = 150


def layers_contract() -> list[set[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    [layers] = [c for c in config["contracts"] if c["type"] == "layers"]
    return [{name.strip() for name in row.split("|")} for row in layers["layers"]]


def layer_diagram(design: str) -> list[set[str]]:
    """The rows of the code block under "Which imports which" in docs/design.md: the names
    before the two-space gap that starts a row's comment."""
    section = design.split("### Which imports which", 1)[1]
    block = section.split("```", 2)[1]
    rows = []
    for line in block.strip("\n").splitlines():
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        rows.append({name.strip() for name in names.split("|")})
    return rows


def test_the_readme_is_a_newcomers_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= README_MAX_LINES
    assert "scripts/run" in readme and "scripts/test" in readme


def test_every_document_the_readme_links_to_exists():
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert links, "the README points to docs/"
    assert [link for link in links if not (ROOT / link).exists()] == []


def test_the_layer_diagram_in_design_is_the_layers_contract():
    design = (ROOT / "docs" / "design.md").read_text()
    assert layer_diagram(design) == layers_contract()


def test_a_diagram_that_misses_a_module_is_caught():
    design = (ROOT / "docs" / "design.md").read_text()
    spoiled = design.replace("| translation", "", 1)
    assert layer_diagram(spoiled) != layers_contract()
