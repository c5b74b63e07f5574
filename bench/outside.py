"""The Expert against an outside Durak AI: `python -m bench.outside --opponent larsenbier:/tmp/larsen`.

The site's engine referees. Every pack is dealt twice with the seats swapped (mirrored,
as bench/arena.py does), so the luck of the deal cancels out. On the outside AI's turn
the harness builds that program's own game state, asks it for a move and maps the move
to the engine's actions; a move our rules refuse becomes the nearest legal action and is
counted as a fallback. The outside code is never copied here: it is imported at run
time from the folder given (docs/arena/outside.md says where to get it).

Kinds:
- `larsenbier`: github.com/larsenbier/Durak-Endgame-Monte-Carlo-Tree-Search (durak.py,
  search.py). Its own heuristic while the talon holds more than 4 cards, then its MCTS
  with `--playouts` playouts, as its main.py plays. The MCTS needs a whole game: with
  `--opponent-sees hand` (the default, as its main.py plays) it is given the true deal,
  the Expert's hand and the talon's order included; with `--opponent-sees sample` it is
  given one `Deal.sample()` of its own view per decision (no hidden card).

Each deal is appended to `--out` (JSON lines) as it ends, so a stopped run keeps its
deals; `--tally FILE` reports a file.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.arena import PRESETS, deck_for, percentile, rotations, wilson
from games.bots import make_bot
from games.engine import Card, Deal, Rules, action_from_token

# The outside program's card encoding: rank 0..8 is 6..A, suit 0..3 is spade, club,
# heart, diamond.
RANKS = "6789TJQKA"
SUITS = "SCHD"
KINDS = ("larsenbier",)
# Rules closest to the outside program's: Perevodnoy, two players, 36 cards, no trump
# exchange (its game has none).
KIND_RULES: dict[str, dict[str, Any]] = {
    "larsenbier": dict(PRESETS["perevodnoy"], trump_exchange="off"),
}
ENDGAME_TALON = 4  # its main.py: MCTS once the talon holds 4 cards or fewer
DEFAULT_PLAYOUTS = 250  # its main.py's NUM_MCTS_PLAYOUTS


def load_module(folder: Path, name: str) -> ModuleType:
    """Import `folder/name.py` under its own name (its modules import each other so)."""
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    if name in sys.modules and Path(getattr(sys.modules[name], "__file__", "")).parent == folder:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"no {name}.py in {folder}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def fingerprint(folder: Path, names: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for name in names:
        digest.update((folder / f"{name}.py").read_bytes())
    return digest.hexdigest()[:12]


class Larsen:
    """The larsenbier program: builds its `TransferDurak` from a deal and asks its move."""

    files = ("durak", "search")

    def __init__(self, folder: Path, playouts: int, sees: str) -> None:
        self.durak = load_module(folder, "durak")
        self.search = load_module(folder, "search")
        self.playouts = playouts
        self.sees = sees
        self.code = fingerprint(folder, self.files)
        self.search_errors = 0

    def card(self, code: str) -> Any:
        c = Card.parse(code)
        return self.durak.Card(c.rank - 6, SUITS.index(c.suit))

    @staticmethod
    def code_of(card: Any) -> str:
        return RANKS[card.rank] + SUITS[card.suit]

    def state(self, source: Deal, view: dict[str, Any]) -> Any:
        """Its game at this moment. Hands and talon come from `source` (the true deal, or a
        sample of the view); everything else is public and comes from `view`."""
        inner = json.loads(source.to_json())
        game = self.durak.TransferDurak(num_players=2, num_humans=0)
        table = view["table"]
        defended = [(a, d) for a, d in table if d is not None]
        unbeaten = [a for a, d in table if d is None]
        on_table = [a for a, _ in table] + [d for _, d in defended]
        hands = [list(h) for h in inner["hands"]]
        attacker, defender = view["attacker"], view["defender"]
        if view["taking"]:
            # Its model: the defender picks the cards up at once; attackers then add to them.
            hands[defender] += on_table
            game.attack_cards, game.defense_cards = [], []
            game.last_attack = [self.card(a) for a, _ in table]
            game.last_defense = [self.card(d) for _, d in defended]
        else:
            # Its defence cards pair with the attack cards by position: beaten ones first.
            game.attack_cards = [self.card(a) for a, _ in defended] + [self.card(a) for a in unbeaten]
            game.defense_cards = [self.card(d) for _, d in defended]
        game.defender_eating = bool(view["taking"])
        game.player_numbers = [0, 1]
        game.talon = [self.card(c) for c in inner["talon"]]  # drawn from the end, as ours
        game.discard = {self.card(c) for c in view["discarded"]}
        game.trump = SUITS.index(view["trump"])
        game.attacker_pos, game.defender_pos = attacker, defender
        game.is_attacker_move = view["to_act"] == attacker
        game.round = view["bout"]
        game.last_move, game.last_move_str = None, ""
        game.last_player = 1 - view["to_act"]
        known = [list(k) for k in view["known"]]
        if view["taking"]:
            known[defender] = known[defender] + on_table
        everything = {c.code for c in _deck36()}
        for seat, player in enumerate(game.players):
            player.hand = [self.card(c) for c in hands[seat]]
            other = 1 - seat
            player.hand_beliefs = [set(), set()]
            player.hand_beliefs[other] = {self.card(c) for c in known[other]}
            unseen = everything - set(hands[seat]) - set(view["discarded"]) - set(on_table) - set(known[other])
            player.talon_belief = {self.card(c) for c in unseen}
        return game

    def choose(self, deal: Deal, seat: int, rng: random.Random) -> tuple[list[str], bool]:
        """Its move as engine tokens (a move of several cards gives several), and whether it
        searched."""
        view = dict(deal.view(seat))
        source = deal if self.sees == "hand" else Deal.sample(deal.view(seat), rng)
        game = self.state(source, view)
        actions = game.actions()
        searched = False
        if len(actions) == 1:
            move = actions[0]
        elif len(game.talon) > ENDGAME_TALON:
            move = game.getCurrentPlayer().chooseActionHeuristic()
        else:
            try:
                move = self.search.MCTS(game, num_iterations=self.playouts)
                searched = True
            except (TypeError, ValueError, IndexError):
                # Its search finds no move where its game already counts as over (a hand
                # empty while the talon lasts); its heuristic moves then.
                self.search_errors += 1
                move = game.getCurrentPlayer().chooseActionHeuristic()
        return self.tokens(game, move), searched

    def tokens(self, game: Any, move: tuple[str, tuple[Any, ...]]) -> list[str]:
        """Its move in the engine's text form (one token per card)."""
        kind, cards = move
        codes = [self.code_of(c) for c in cards]
        if kind == "e":
            return ["take"]
        if kind in ("r", "b", "p"):  # ride (bito), block further additions, pass
            return ["pass"]
        if kind == "a":
            return [f"attack:{c}" for c in codes]
        if kind == "t":
            return [f"transfer:{c}" for c in codes]
        if kind == "d":
            targets = [self.code_of(c) for c in game.attack_cards]
            if game.defense_cards:  # it beats the last attack card only
                return [f"defend:{targets[-1]}:{codes[0]}"]
            return [f"defend:{a}:{c}" for a, c in zip(targets, codes, strict=False)]
        raise ValueError(f"unknown move {move!r}")


def _deck36() -> list[Card]:
    return [Card.parse(r + s) for s in "SHDC" for r in RANKS]


def nearest_legal(wanted: str, legal: Sequence[str]) -> str:
    """The legal token closest to a refused one: the same kind of action with the closest
    card (same suit first), else a like action (transfer -> defend -> take, attack -> pass)."""
    kind, _, rest = wanted.partition(":")
    substitutes = {"attack": ["pass"], "transfer": ["defend", "take"], "defend": ["take"],
                   "pass": [], "take": []}
    for k in [kind, *substitutes.get(kind, [])]:
        same = [t for t in legal if t.partition(":")[0] == k]
        if not same:
            continue
        if not rest or k != kind:
            return same[0]
        return min(same, key=lambda token: _distance(token, rest))
    return legal[0]


def _distance(token: str, wanted_cards: str) -> tuple[int, int]:
    want = Card.parse(wanted_cards.split(":")[-1])
    got = Card.parse(token.split(":")[-1])
    return int(got.suit != want.suit), abs(got.rank - want.rank)


@dataclass
class Tally:
    fallbacks: list[dict[str, Any]] = field(default_factory=list)
    followed: int = 0  # second and later cards of a move of several cards that were played
    dropped: int = 0  # such cards the engine refused at their turn (not played; it was asked again)


def play_deal(rules: Rules, pack: list[str], dealer: int, expert_seat: int, opponent: Any,
              budget: float | None, seed: str, cpu_clock: bool = True) -> dict[str, Any]:
    """One deal, the Expert at `expert_seat` and the outside AI at the other seat."""
    ai_seat = 1 - expert_seat
    expert = make_bot("expert", seed=f"{seed}/expert", budget=budget)
    if cpu_clock:
        expert.clock = time.process_time
    random.seed(f"{seed}/outside")  # the outside program draws from the global generator
    rng = random.Random(f"{seed}/sample")
    deal = Deal.start(rules, deck=pack, dealer=dealer)
    tally = Tally()
    queue: list[str] = []
    cpu: dict[str, list[float]] = {"expert": [], "outside": []}
    searches = moves = 0
    errors_before = getattr(opponent, "search_errors", 0)
    while not deal.is_over:
        exchanged = False
        for s in range(rules.players):  # R25-R27: only the Expert knows the exchange
            if s == expert_seat and s != deal.to_act and deal.legal_actions(s):
                deal.apply(s, expert.act(deal.view(s)))
                exchanged = True
        if exchanged:
            continue
        seat = deal.to_act
        assert seat is not None
        legal = [a.token() for a in deal.legal_actions(seat)]
        c0 = time.process_time()
        if seat == expert_seat:
            action = expert.act(deal.view(seat))
            if len(legal) > 1:
                cpu["expert"].append(time.process_time() - c0)
        else:
            if queue and queue[0] in legal:
                token = queue.pop(0)
                tally.followed += 1
            else:
                tally.dropped += len(queue)
                queue = []
                tokens, searched = opponent.choose(deal, seat, rng)
                searches += searched
                if len(legal) > 1:
                    cpu["outside"].append(time.process_time() - c0)
                token, queue = tokens[0], tokens[1:]
                if token not in legal:
                    chosen = nearest_legal(token, legal)
                    tally.fallbacks.append({"wanted": token, "played": chosen, "bout": deal.view(seat)["bout"]})
                    token, queue = chosen, []
            action = action_from_token(token)
        deal.apply(seat, action)
        moves += 1
        if moves > 5000:  # pragma: no cover - the engine guarantees an end
            raise RuntimeError("deal does not end")
    tally.dropped += len(queue)
    return {"expert_seat": expert_seat, "dealer": dealer, "pack": hashlib.sha256(" ".join(pack).encode()).hexdigest()[:12],
            "loser": deal.loser, "draw": deal.is_draw,
            "expert_lost": (not deal.is_draw) and deal.loser == expert_seat,
            "outside_lost": (not deal.is_draw) and deal.loser == ai_seat,
            "fallbacks": tally.fallbacks, "followed": tally.followed, "dropped": tally.dropped,
            "searches": searches, "search_errors": getattr(opponent, "search_errors", 0) - errors_before,
            "moves": moves,
            "expert_cpu": [round(t, 4) for t in cpu["expert"]], "outside_cpu": [round(t, 4) for t in cpu["outside"]]}


def play_pack(rules: Rules, seed: str, index: int, opponent: Any, budget: float | None,
              cpu_clock: bool = True) -> list[dict[str, Any]]:
    """The seed's pack `index`, once with the Expert at each seat."""
    pack, dealer = deck_for(rules, seed, index)
    results = []
    for r, lineup in enumerate(rotations(["expert", "outside"])):
        res = play_deal(rules, pack, dealer, lineup.index("expert"), opponent, budget, f"{seed}/{index}/{r}", cpu_clock)
        res["deck"] = index
        results.append(res)
    return results


def report(lines: Sequence[dict[str, Any]], out: Any = None) -> None:
    out = out or sys.stdout
    n = len(lines)
    lost = sum(r["expert_lost"] for r in lines)
    won = sum(r["outside_lost"] for r in lines)
    draws = sum(r["draw"] for r in lines)
    lo, hi = wilson(lost, n)
    olo, ohi = wilson(won, n)
    fb = sum(len(r["fallbacks"]) for r in lines)
    ex = [t for r in lines for t in r["expert_cpu"]]
    ou = [t for r in lines for t in r["outside_cpu"]]
    decks = len({(r.get("seed"), r["deck"]) for r in lines})
    print(f"{n} deals ({decks} packs, {draws} drawn)", file=out)
    if n:
        print(f"Expert lost {lost} ({lost / n:.1%}, 95% CI [{lo:.1%}, {hi:.1%}]); "
              f"outside AI lost {won} ({won / n:.1%}, [{olo:.1%}, {ohi:.1%}])", file=out)
    packs: dict[tuple[Any, int], list[bool]] = {}
    for r in lines:
        packs.setdefault((r.get("seed"), r["deck"]), []).append(r["expert_lost"])
    pairs = [p for p in packs.values() if len(p) == 2]
    print(f"mirrored packs: Expert lost both deals {sum(all(p) for p in pairs)}, one "
          f"{sum(any(p) and not all(p) for p in pairs)}, none {sum(not any(p) for p in pairs)}", file=out)
    print(f"fallbacks: {fb} in {sum(bool(r['fallbacks']) for r in lines)} deals; later cards of "
          f"several-card moves played {sum(r['followed'] for r in lines)}, refused "
          f"{sum(r['dropped'] for r in lines)}; its searches {sum(r['searches'] for r in lines)} "
          f"(and {sum(r.get('search_errors', 0) for r in lines)} that found no move)", file=out)
    for name, ts in (("Expert", ex), ("outside AI", ou)):
        if ts:
            print(f"{name} CPU per decision with a choice: mean {sum(ts) / len(ts) * 1000:.0f} ms, "
                  f"p95 {percentile(ts, 0.95) * 1000:.0f} ms over {len(ts)}", file=out)


def read_lines(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(t) for t in f if t.strip()]


def make_opponent(spec: str, playouts: int, sees: str) -> Any:
    kind, _, folder = spec.partition(":")
    if kind not in KINDS or not folder:
        raise argparse.ArgumentTypeError(f"--opponent KIND:PATH with KIND one of {', '.join(KINDS)}")
    return Larsen(Path(folder).resolve(), playouts, sees)


def main(argv: list[str] | None = None, opponent_factory: Callable[..., Any] = make_opponent) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(prog="python -m bench.outside", description=doc.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(doc.splitlines()[2:]))
    parser.add_argument("--opponent", help="KIND:PATH, e.g. larsenbier:/tmp/larsen")
    parser.add_argument("--deals", type=int, default=2, help="deals in all (rounded up to whole mirrored pairs)")
    parser.add_argument("--seed", default="outside")
    parser.add_argument("--first-deck", type=int, default=0)
    parser.add_argument("--budget", type=float, default=None, help="the Expert's CPU seconds per move")
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS, help="the outside AI's MCTS playouts")
    parser.add_argument("--opponent-sees", choices=("hand", "sample"), default="hand",
                        help="hand: its search is given the true deal; sample: a sample of its view")
    parser.add_argument("--wall-clock", action="store_true", help="the Expert's budget in wall seconds")
    parser.add_argument("--out", default=None, help="append each deal to this file (JSON lines)")
    parser.add_argument("--tally", nargs="+", default=None, help="play nothing: report these files")
    args = parser.parse_args(argv)
    if args.tally:
        report([r for p in args.tally for r in read_lines(p)])
        return 0
    if not args.opponent:
        parser.error("--opponent is required")
    kind = args.opponent.partition(":")[0]
    opponent = opponent_factory(args.opponent, args.playouts, args.opponent_sees)
    rules = Rules.from_dict(dict(KIND_RULES.get(kind, PRESETS["perevodnoy"]), players=2))
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    lines: list[dict[str, Any]] = []
    try:
        for index in range(args.first_deck, args.first_deck + max(1, (args.deals + 1) // 2)):
            for res in play_pack(rules, args.seed, index, opponent, args.budget, not args.wall_clock):
                res.update(seed=args.seed, opponent=kind, opponent_code=getattr(opponent, "code", ""),
                           playouts=args.playouts, sees=args.opponent_sees, budget=args.budget,
                           rules=rules.to_dict())
                lines.append(res)
                if out:
                    out.write(json.dumps(res, separators=(",", ":")) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    report(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
