"""`python -m bench.bots` prints playouts per second for each case."""

from bench import bots as bench


def test_bench_prints_a_rate_per_case(capsys):
    bench.main(["--seconds", "0.05"])
    lines = capsys.readouterr().out.splitlines()
    rows = {line[:28].strip(): line[28:].split() for line in lines[1:-1]}
    assert set(rows) == {name for name, _ in bench.CASES}
    for rates in rows.values():
        assert len(rates) == 2 and all(float(r) > 0 for r in rates)
