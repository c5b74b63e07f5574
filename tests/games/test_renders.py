"""games.present.render: the mover's answer and the pushes to the mover's own sockets
share one render of the new version, each with its own CSRF token and swap."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.present import felt, render
from tests.games.leaks import assert_no_leak

from .test_live import connect, deal_of, fresh, legal, receive_table

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]


async def test_the_movers_answer_and_sockets_share_one_render(duel, alice, bob, monkeypatch):
    rendered = []
    real, real_felt = render.render_to_string, felt.render

    def counted(template, ctx, *args, **kwargs):
        rendered.append(("table", ctx["game"].version, ctx["user"].pk))
        return real(template, ctx, *args, **kwargs)

    def counted_felt(ctx):
        if ctx.get("part_oob"):  # a push's felt (the whole table's is in its render)
            rendered.append(("felt", ctx["game"].version, ctx["user"].pk))
        return real_felt(ctx)

    monkeypatch.setattr(render, "render_to_string", counted)
    monkeypatch.setattr(felt, "render", counted_felt)
    duel = await fresh(duel)
    seat = (await deal_of(duel)).to_act
    mover, other = (alice, bob) if seat == 0 else (bob, alice)
    mine, _, _ = await connect(duel, mover)
    theirs, _, _ = await connect(duel, other)
    await receive_table(mine)
    await receive_table(theirs)
    client = Client()
    await sync_to_async(client.force_login)(mover)
    rendered.clear()
    before = duel.version
    token = (await legal(duel, seat))[0]
    answer = await sync_to_async(client.post)(
        f"/games/{duel.pk}/play/", {"action": token, "version": before},
        headers={"HX-Request": "true"})
    assert answer.status_code == 200
    body = answer.content.decode()
    assert f'data-version="{before + 1}"' in body and "hx-swap-oob" not in body
    assert render.CSRF_MARK not in body and render.SWAP_MARK not in body
    pushed, version = await receive_table(mine)  # hx-swap-oob="true" (receive_table checks)
    assert version == before + 1
    assert pushed.replace(' hx-swap-oob="true"', "") != body  # its own CSRF token
    other_view, _ = await receive_table(theirs)
    deal = await deal_of(duel)
    await sync_to_async(assert_no_leak)(body, deal, seat)
    await sync_to_async(assert_no_leak)(pushed, deal, seat)
    await sync_to_async(assert_no_leak)(other_view, deal, 1 - seat)
    # The answer is the mover's whole table; each socket pushes only its reader's felt.
    assert "table-felt" in pushed and 'id="table"' not in pushed
    assert sorted(rendered) == sorted([("table", before + 1, mover.pk),
                                       ("felt", before + 1, mover.pk),
                                       ("felt", before + 1, other.pk)])
    for comm in (mine, theirs):
        await comm.disconnect()
