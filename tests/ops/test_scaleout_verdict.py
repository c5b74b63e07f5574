"""The scale-out benchmark's last column names what limits a run: the site's cores, the
other cores (PostgreSQL, Redis, the client), or a single Daphne process full on its core."""

from bench.scaleout import daphne_cpus, verdict


def test_the_verdict_names_the_full_resource():
    # One Daphne on two cores: the cores are half idle but the process is full.
    assert verdict(94, 10, 1, 4, 2, 2, busiest_daphne=94).startswith("one Daphne process")
    # Two Daphnes sharing one core: the core is full.
    assert verdict(102, 10, 1, 17, 1, 1, busiest_daphne=51).startswith("the Daphnes' cores")
    # The client and PostgreSQL fill their core first.
    assert verdict(40, 50, 5, 40, 1, 1, busiest_daphne=40).startswith("the other cores")
    assert verdict(124, 13, 1, 5, 2, 2, busiest_daphne=63).startswith("nothing full")


def test_cores_shared_by_the_site_and_the_rest_add_up():
    # Two Daphnes at 74% and PostgreSQL, Redis and the client on the same two cores: full.
    assert verdict(148, 18, 1, 6, 2, 2, busiest_daphne=74,
                   shared=True).startswith("the Daphnes' cores (86% busy)")
    assert verdict(148, 18, 1, 6, 2, 2, busiest_daphne=74).startswith("nothing full")


def test_each_daphne_is_read_from_the_benchmark_cell():
    assert daphne_cpus("daphne 63%, redis-server 2%, daphne 61%") == [63.0, 61.0]
