"""RulePreset, Game, Seat, the move log, finished deals and the table chat (docs/design.md, "The packages").

Nothing but games.services writes a Game, its seats or its moves once the game exists.
"""

import secrets
from datetime import timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .describe import duration
from .engine import Match, Rules
from .engine.rules import TEAMS

BOT_LEVELS = [  # games.bots.LEVELS; kept here so migrations don't depend on the bots package
    ("easy", _("easy")),
    ("medium", _("medium")),
    ("hard", _("hard")),
    ("expert", _("expert")),
]
MIN_MOVE_TIME = timedelta(minutes=1)
MAX_MOVE_TIME = timedelta(days=14)
MAX_BANK_TIME = timedelta(days=30)


class TimeControl(models.TextChoices):
    """How long a player may think: a fixed time per move, or a bank of time per player
    that every move of theirs draws on and refills by the increment (up to the bank)."""

    MOVE = "move", _("time per move")
    BANK = "bank", _("time bank")

# The rule options of docs/rules.md section 9 that a preset fixes (players is a range instead).
RULE_OPTIONS = (
    "teams", "deck_size", "hand_size", "attack_limit", "first_bout_limit", "lead_multiple",
    "throw_in", "transfer", "trump_exchange", "next_deal_start",
)


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class RulePreset(models.Model):
    """A named combination of rule options (docs/rules.md section 9), managed in the admin."""

    # What mypy reads of modeltranslation's manager, whose class is made at run time.
    objects: ClassVar["models.Manager[RulePreset]"]

    class Teams(models.TextChoices):
        NONE = "", _("individual play")
        PAIRS_2X2 = "2x2", _("two pairs (4 players)")
        TEAMS_2X3 = "2x3", _("two teams of three (6 players)")
        PAIRS_3X2 = "3x2", _("three pairs (6 players)")

    class ThrowIn(models.TextChoices):
        AUTO = "auto", _("automatic (neighbours at 5–6 players, else everybody)")
        ALL = "all", _("every attacker")
        NEIGHBOURS = "neighbours", _("the defender's neighbours")
        MAIN_ONLY = "main_only", _("the main attacker only")

    class TrumpExchange(models.TextChoices):
        OFF = "off", _("no exchange")
        SIX = "six", _("the trump 6 for the trump card")
        SIX_IF_ACE = "six_if_ace", _("the trump 6 only for the trump ace")

    class NextDealStart(models.TextChoices):
        DEALER_LEFT = "dealer_left", _("left of the dealer")
        LOSER_RIGHT = "loser_right", _("right of the previous loser")

    class TimeoutPolicy(models.TextChoices):
        BOT = "bot", _("a computer player takes over the seat")
        FORFEIT = "forfeit", _("the player forfeits and becomes the durak")

    name = models.CharField(_("name"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True,
                                   help_text=_("Shown to players choosing a game."))
    active = models.BooleanField(_("offered"), default=True,
                                 help_text=_("Untick to stop offering this preset for new games."))
    position = models.PositiveSmallIntegerField(_("position"), default=100,
                                                help_text=_("Lower comes first in lists."))
    min_players = models.PositiveSmallIntegerField(
        _("fewest players"), default=2, validators=[MinValueValidator(2), MaxValueValidator(6)])
    max_players = models.PositiveSmallIntegerField(
        _("most players"), default=6, validators=[MinValueValidator(2), MaxValueValidator(6)])
    teams = models.CharField(_("teams"), max_length=3, choices=Teams, blank=True, default="")
    deck_size = models.PositiveSmallIntegerField(
        _("deck size"), choices=[(24, "24"), (36, "36"), (52, "52")], default=36)
    hand_size = models.PositiveSmallIntegerField(
        _("hand size"), choices=[(5, "5"), (6, "6")], default=6)
    attack_limit = models.PositiveSmallIntegerField(
        _("attack limit"), default=6, validators=[MinValueValidator(1), MaxValueValidator(6)])
    first_bout_limit = models.PositiveSmallIntegerField(
        _("first bout limit"), choices=[(5, "5"), (6, "6")], default=6)
    lead_multiple = models.BooleanField(_("lead several cards of one rank"), default=False)
    throw_in = models.CharField(_("who may throw in"), max_length=12, choices=ThrowIn,
                                default=ThrowIn.AUTO)
    transfer = models.BooleanField(_("transfer (perevodnoy)"), default=False)
    trump_exchange = models.CharField(_("trump exchange"), max_length=12, choices=TrumpExchange,
                                      default=TrumpExchange.SIX)
    next_deal_start = models.CharField(_("next deal starts"), max_length=12,
                                       choices=NextDealStart, default=NextDealStart.DEALER_LEFT)
    timeout_policy = models.CharField(_("after repeated timeouts"), max_length=8,
                                      choices=TimeoutPolicy, default=TimeoutPolicy.BOT)
    timeouts_allowed = models.PositiveSmallIntegerField(
        _("timeouts in a row allowed"), default=3, validators=[MinValueValidator(1)],
        help_text=_("When a seat times out this many times in a row, the policy above applies."))
    stand_in_counts = models.BooleanField(
        _("a deal finished by a stand-in counts"), default=False,
        help_text=_("Whether a deal that a computer finished for an absent player counts on "
                    "that player's record as if they had played it."))
    # The time control a new table gets unless its maker chooses another.
    time_control = models.CharField(_("time control"), max_length=4, choices=TimeControl,
                                    default=TimeControl.MOVE)
    move_time = models.DurationField(
        _("time per move"), default=timedelta(days=1),
        validators=[MinValueValidator(MIN_MOVE_TIME), MaxValueValidator(MAX_MOVE_TIME)])
    bank_time = models.DurationField(
        _("time bank"), default=timedelta(days=3),
        validators=[MinValueValidator(MIN_MOVE_TIME), MaxValueValidator(MAX_BANK_TIME)],
        help_text=_("Each player's time for the whole game with a time bank."))
    increment = models.DurationField(
        _("time added per move"), default=timedelta(days=1),
        validators=[MaxValueValidator(MAX_MOVE_TIME)],
        help_text=_("Added to a player's bank after each of their moves, up to the bank."))

    class Meta:
        ordering = ("position", "name")
        verbose_name = _("rule preset")
        verbose_name_plural = _("rule presets")

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The name in the reader's language: `name` reads the active language's column
        (games/translation.py), the English one where that is empty."""
        return self.name

    @property
    def about(self) -> str:
        """The description in the reader's language, likewise."""
        return self.description or ""

    def options(self) -> dict:
        """The rule options without players, as Rules takes them."""
        d = {name: getattr(self, name) for name in RULE_OPTIONS}
        d["teams"] = d["teams"] or None
        return d

    def rules(self, players: int) -> Rules:
        """The engine's Rules for a game of `players`; ValueError names a bad option."""
        return Rules(players=players, **self.options())

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def clean(self) -> None:
        if self.min_players is None or self.max_players is None:
            return
        if self.min_players > self.max_players:
            raise ValidationError(_("The fewest players can't be more than the most players."))
        # The usual mistakes in an admin's words; the engine judges the rest.
        needed = TEAMS[self.teams][0] if self.teams else None
        if needed is not None and not self.min_players == self.max_players == needed:
            raise ValidationError(_("These teams need exactly %(n)s players: set the fewest "
                                    "and the most players to %(n)s.") % {"n": needed})
        if needed is not None and self.throw_in == self.ThrowIn.NEIGHBOURS:
            raise ValidationError(_("“The defender's neighbours” is for play without teams: "
                                    "choose who may throw in another way."))
        if self.max_players * self.hand_size > self.deck_size:
            raise ValidationError(_(
                "%(players)s players with %(hand)s cards each need %(need)s cards, more than "
                "the pack holds: choose a bigger pack, smaller hands or fewer players.") % {
                "players": self.max_players, "hand": self.hand_size,
                "need": self.max_players * self.hand_size})
        for players in self.player_counts:
            try:
                self.rules(players)
            except ValueError as exc:  # the engine's message names the option
                raise ValidationError(str(exc)) from None


class Invited:
    """A game or tournament among friends: its link with the invite token."""

    invite_token: str

    def get_absolute_url(self) -> str:
        raise NotImplementedError

    @property
    def invite_url(self) -> str:
        return f"{self.get_absolute_url()}?invite={self.invite_token}"


class Clocked:
    """A game's or a tournament's time control, in words as a table says it."""

    time_control: str
    move_time: timedelta
    bank_time: timedelta | None
    increment: timedelta | None

    @property
    def has_bank(self) -> bool:
        return self.time_control == TimeControl.BANK

    @property
    def clock_label(self) -> str:
        """The time control in words: "1 day per move", "3 days + 1 day per move"."""
        if not self.has_bank:
            return _("%(time)s per move") % {"time": duration(self.move_time)}
        assert self.bank_time is not None  # a bank has one (services.lobby, the admin)
        if not self.increment:
            return _("%(bank)s for the game") % {"bank": duration(self.bank_time)}
        return _("%(bank)s + %(increment)s per move") % {
            "bank": duration(self.bank_time), "increment": duration(self.increment)}


class Game(Invited, Clocked, models.Model):
    """One table: its seats, its match (stored as Match.to_json()) and its version."""

    # Its deal records as a kept snapshot read them (games.present.snapshots); not a field,
    # and unset until then.
    kept_records: "list[DealRecord]"

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        PLAYING = "playing", pgettext_lazy("a game's status (игра)", "playing")
        FINISHED = "finished", pgettext_lazy("a game's status (игра)", "finished")
        ABORTED = "aborted", pgettext_lazy("a game's status (игра)", "aborted")

    preset = models.ForeignKey(RulePreset, on_delete=models.PROTECT, related_name="games",
                               verbose_name=_("rule preset"))
    rules = models.JSONField(_("rules"), help_text=_("Rules.to_dict() fixed when the game was made."))
    players = models.PositiveSmallIntegerField(_("players"))
    status = models.CharField(_("status"), max_length=8, choices=Status, default=Status.OPEN,
                              db_index=True)
    deals = models.PositiveSmallIntegerField(_("deals"), null=True, blank=True)
    loss_limit = models.PositiveSmallIntegerField(_("loss limit"), null=True, blank=True)
    move_time = models.DurationField(
        _("time per move"),
        validators=[MinValueValidator(MIN_MOVE_TIME), MaxValueValidator(MAX_MOVE_TIME)])
    fill_bot_level = models.CharField(_("level of bots filling empty seats"), max_length=8,
                                      choices=BOT_LEVELS, default="medium")
    private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(_("invite token"), max_length=32, default=new_invite_token,
                                    editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   related_name="games_created", verbose_name=_("created by"))
    created_at = models.DateTimeField(pgettext_lazy("when a game (игра) was", "created"), auto_now_add=True)
    started_at = models.DateTimeField(pgettext_lazy("when a game (игра) was", "started"), null=True, blank=True)
    finished_at = models.DateTimeField(pgettext_lazy("when a game (игра) was", "finished"), null=True, blank=True)
    state = models.TextField(_("state"), blank=True, help_text=_("Match.to_json()"))
    version = models.PositiveIntegerField(_("version"), default=0)
    time_control = models.CharField(_("time control"), max_length=4, choices=TimeControl,
                                    default=TimeControl.MOVE)
    bank_time = models.DurationField(_("time bank"), null=True, blank=True,
                                     help_text=_("Each player's bank at the start."))
    increment = models.DurationField(_("time added per move"), null=True, blank=True)
    turn_started = models.DateTimeField(_("turn started"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    turn_seat = models.PositiveSmallIntegerField(_("seat to act"), null=True, blank=True)
    paused_at = models.DateTimeField(
        _("clock stopped at"), null=True, blank=True,
        help_text=_("The player to act is on vacation: their clock stands still."))
    move_email_at = models.DateTimeField(
        _("\"your move\" email at"), null=True, blank=True, db_index=True,
        help_text=_("When the player to act hears about it, unless they have been on the site."))
    next_reminder = models.DateTimeField(_("next reminder"), null=True, blank=True,
                                         db_index=True)
    reminders_sent = models.PositiveSmallIntegerField(
        _("reminders sent"), default=0, help_text=_("Emails sent for the current turn."))
    forfeited_seat = models.PositiveSmallIntegerField(_("forfeited by seat"), null=True,
                                                      blank=True)
    timeout_marks = models.JSONField(
        _("timeouts in the log"), default=list, blank=True,
        help_text=_("Where the site moved for a player whose time ran out: deal, event, seat."))
    last_move_mark = models.JSONField(
        _("last move in the log"), default=list, blank=True,
        help_text=_("Where the last move began in its deal's log: deal, event."))
    rated = models.BooleanField(_("rated"), default=True,
                                help_text=_("A casual game does not change anyone's rating."))
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="challenges", verbose_name=_("challenged player"),
        help_text=_("A private table made for this player: only they may take its free seat."))
    min_reliability = models.PositiveSmallIntegerField(
        _("minimum reliability"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("Only players who finished at least this share of their recent games "
                    "without a timeout may sit down (percent)."))
    lesson = models.BooleanField(
        _("lesson"), default=False,
        help_text=_("A first deal against the computer that explains the game as it goes."))
    tournament_round = models.ForeignKey(
        "TournamentRound", on_delete=models.SET_NULL, null=True, blank=True, related_name="games",
        verbose_name=_("tournament round"),
        help_text=_("The round this table belongs to (its RoundTable says the board)."))
    rematch = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="rematch_of", verbose_name=_("rematch"),
                                help_text=_("The table the same players opened after this one."))

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players__gte=2, players__lte=6), name="game_players_2_to_6"),
        ]

    def __str__(self) -> str:
        return _("Game %(id)s (%(preset)s)") % {"id": self.pk, "preset": self.preset}

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def rating_label(self) -> str:
        """"rated" or "casual", as the table and My games say it."""
        return gettext("rated") if self.rated else gettext("casual")

    @property
    def turn_time(self) -> timedelta | None:
        """The time the seat to act was given for this turn."""
        if self.deadline is None or self.turn_started is None:
            return None
        return self.deadline - self.turn_started

    def get_rules(self) -> Rules:
        return Rules.from_dict(self.rules)

    def match(self) -> Match | None:
        return Match.from_json(self.state) if self.state else None

    def match_in_play(self) -> Match:
        """The match of a game that has started (its state is kept from then on)."""
        match = self.match()
        if match is None:
            raise ValueError(f"game {self.pk} has no match: it has not started")
        return match


class Seat(models.Model):
    """A place at the table: a player, a bot, or (after repeated timeouts) a bot standing in."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="seats", verbose_name=_("player"))
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BOT_LEVELS, blank=True,
                                 help_text=_("Set for a computer player, or a bot standing in."))
    team = models.PositiveSmallIntegerField(_("team"))
    timeouts = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    timeouts_total = models.PositiveSmallIntegerField(_("timeouts"), default=0)
    bank = models.DurationField(_("time left in the bank"), null=True, blank=True)
    resigned_deal = models.PositiveSmallIntegerField(
        _("resigned in deal"), null=True, blank=True,
        help_text=_("The deal in which the player resigned (team play: a bot plays on)."))
    resigned_event = models.PositiveIntegerField(
        _("resigned after event"), null=True, blank=True,
        help_text=_("How far the deal's log had got when the player resigned."))
    wants_rematch = models.BooleanField(_("accepted a rematch"), default=False)
    bot_number = models.PositiveSmallIntegerField(
        _("computer player's number"), null=True, blank=True,
        help_text=_("Keeps a computer player's name when a rematch moves it to another seat."))
    # The game's version this seat's player was last sent a push notification about
    # (games.services.push): at most one per game per move, claimed by a conditional update.
    pushed_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Standing orders (games.services.orders): the site passes or takes for the seat's
    # player on their turn when an order fits. Seen by that player alone; the deal's end
    # clears them. `auto_moves`: the events of this deal's history the orders played.
    auto_pass = models.BooleanField(_("pass automatically when only throwing in is left"),
                                    default=False)
    auto_take = models.BooleanField(_("take automatically when unable to beat"), default=False)
    auto_moves = models.JSONField(default=list, blank=True, editable=False)
    # Set when the match ends (services.results.finish_match): the seat's side came last
    # (not a full draw). A profile counts it without reading the match (docs/design.md,
    # "A year of data").
    lost = models.BooleanField(_("lost the match"), null=True, blank=True, editable=False)
    # The game's facts a player's lists filter and sort by, copied onto each seat so an
    # index on the seat answers them (docs/design.md, "A year of data"): kept in step by
    # services.change.Change.save, the one door of every change of a game.
    game_status = models.CharField(max_length=8, choices=Game.Status, default=Game.Status.OPEN,
                                   editable=False)
    game_private = models.BooleanField(default=False, editable=False)
    game_preset = models.ForeignKey(RulePreset, on_delete=models.PROTECT, null=True,
                                    editable=False, related_name="+", db_index=False)
    game_finished_at = models.DateTimeField(null=True, editable=False)

    class Meta:
        ordering = ("game", "number")
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        indexes = [  # a player's latest games (the profile), newest first by game id
            models.Index(fields=["player", "-game"], name="seat_player_newest"),
            # a player's games by status, latest finished first (My games, reliability)
            models.Index(fields=["player", "game_status", "-game_finished_at", "-game"],
                         name="seat_player_status_finished"),
            # a profile's games per rule preset, read from the index alone
            models.Index(fields=["player", "game_private", "game_preset", "lost", "game"],
                         name="seat_player_presets"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="one_seat_per_player",
                                    condition=models.Q(player__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number} {self.name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is None and self.game_preset_id is None and self.game_id is not None:
            for name, value in self.facts_of(self.game).items():  # a seat made on its own
                setattr(self, name, value)
        super().save(*args, **kwargs)

    @staticmethod
    def facts_of(game: Game) -> dict[str, Any]:
        """The game's facts as its seats keep them: the one list of them."""
        return {"game_status": game.status, "game_private": game.private,
                "game_preset_id": game.preset_id, "game_finished_at": game.finished_at}

    @property
    def is_bot(self) -> bool:
        """A computer player moves for this seat (a bot, or a bot standing in)."""
        return bool(self.bot_level)

    @property
    def team_label(self) -> str:
        """Teams are lettered A, B, C for people."""
        return "ABC"[self.team] if self.team < 3 else str(self.team + 1)

    @property
    def stands_in(self) -> bool:
        """A computer plays this person's seat (after repeated timeouts)."""
        return self.player_id is not None and bool(self.bot_level)

    @property
    def is_empty(self) -> bool:
        return self.player_id is None and not self.bot_level

    @property
    def name(self) -> str:
        if self.player is not None:  # no query when player_id is None
            return self.player.name
        if self.bot_level:
            return _("Computer %(number)s (%(level)s)") % {
                "number": self.bot_number or self.number + 1, "level": self.get_bot_level_display()}
        return gettext("Empty seat")  # a str now, as the other two branches


class Move(models.Model):
    """The move log: every change to a game, who made it and when. `actions` holds
    action tokens ("attack:7S", "defend:7S:9S", "take") or the change ("create", "join").
    """

    class Kind(models.TextChoices):
        MOVE = "move", _("move")
        TIMEOUT = "timeout", _("timeout")
        BOT = "bot", _("bot")
        SYSTEM = "system", _("system")
        ORDER = "order", _("standing order")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="+", verbose_name=_("player"))
    actions = models.JSONField(_("actions"), default=list)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind, default=Kind.MOVE)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("game", "seq")
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.seq} {self.kind}"


class Rating(models.Model):
    """A player's skill (openskill's mu and sigma) in individual or team play; bots have
    fixed ratings per level (games.services.ratings.BOT_RATINGS) and no rows."""

    class Pool(models.TextChoices):
        INDIVIDUAL = "individual", _("individual play")
        TEAMS = "teams", _("team play")

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="ratings", verbose_name=_("player"))
    pool = models.CharField(_("play"), max_length=10, choices=Pool)
    mu = models.FloatField(_("skill"))
    sigma = models.FloatField(_("uncertainty"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    # Rated games per leaderboard bracket of individual play (services.ratings.BRACKETS),
    # so that a leaderboard counts nothing when it is read.
    games_2 = models.PositiveIntegerField(default=0, editable=False)
    games_3_4 = models.PositiveIntegerField(default=0, editable=False)
    games_5_6 = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ("player", "pool")
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["player", "pool"], name="rating_player_pool_unique"),
        ]
        # The leaderboards' order (present/standings.py): the best 100 read from the index.
        indexes = [models.Index(F("pool"), (F("mu") - 3 * F("sigma")).desc(),
                                name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.pool} {self.mu:.2f}±{self.sigma:.2f}"


class BotRating(models.Model):
    """A computer level's rating on the people's scale (docs/ladder.md): from its games
    against people (games.services.ratings) and from the bot arena (services.ladder)."""

    level = models.CharField(_("bot level"), max_length=8, choices=BOT_LEVELS)
    pool = models.CharField(_("play"), max_length=10, choices=Rating.Pool)
    mu = models.FloatField(_("skill"))
    sigma = models.FloatField(_("uncertainty"))
    games = models.PositiveIntegerField(_("games against people"), default=0)
    arena_deals = models.PositiveIntegerField(_("arena deals"), default=0)

    class Meta:
        ordering = ("pool", "level")
        verbose_name = _("computer player's rating")
        verbose_name_plural = _("computer players' ratings")
        constraints = [
            models.UniqueConstraint(fields=["level", "pool"], name="bot_rating_level_pool_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.level} {self.pool} {self.mu:.2f}±{self.sigma:.2f}"


class ArenaRun(models.Model):
    """One run of the bot arena (`manage.py bot_ladder`): its settings and figures, per
    level and per pair of levels (services.ladder.play_arena says what they hold)."""

    at = models.DateTimeField(_("at"), auto_now_add=True)
    deals = models.PositiveIntegerField(_("deals"))
    budget = models.FloatField(_("thinking time per move"), null=True, blank=True,
                               help_text=_("Seconds; empty: each level's own."))
    seed = models.CharField(_("seed"), max_length=64)
    seconds = models.FloatField(_("took (seconds)"))
    figures = models.JSONField(_("figures"), default=dict)

    class Meta:
        ordering = ("-at", "-pk")
        verbose_name = _("arena run")
        verbose_name_plural = _("arena runs")

    def __str__(self) -> str:
        return f"arena {self.at:%Y-%m-%d %H:%M} {self.deals} deals"


class RatingChange(models.Model):
    """The rating history: one row per rated player per finished rated game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="rating_changes", verbose_name=_("player"))
    pool = models.CharField(_("play"), max_length=10, choices=Rating.Pool)
    players = models.PositiveSmallIntegerField(_("players"))
    place = models.PositiveSmallIntegerField(_("place"), help_text=_("1 is best; ties share."))
    lost = models.BooleanField(_("lost"), help_text=_("The player (or team) came last."))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    at = models.DateTimeField(_("at"))

    class Meta:
        ordering = ("at", "pk")
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        indexes = [  # a profile's chart: one player's history in one pool, in order
            models.Index(fields=["player", "pool", "at"], name="rating_change_history"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_change_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.player_id} {self.mu_before:.2f}->{self.mu_after:.2f}"


class DealRecord(models.Model):
    """A finished deal as everybody saw it: its public log (`deal.view(None)["history"]`,
    which holds no hidden card) and its result, kept for browsing once the next deal runs."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deal_records")
    number = models.PositiveSmallIntegerField(_("deal"))
    history = models.JSONField(_("log"), default=list)
    loser = models.PositiveSmallIntegerField(_("durak's seat"), null=True, blank=True)
    losing_team = models.PositiveSmallIntegerField(_("losing seat or team"), null=True,
                                                   blank=True)
    draw = models.BooleanField(_("drawn"), default=False)
    out = models.JSONField(_("seats in the order they went out"), default=list)
    resigned = models.PositiveSmallIntegerField(_("resigned by seat"), null=True, blank=True)
    # The SHA-256 the table showed before the deal's first card (docs/fairness.md).
    commitment = models.CharField(_("commitment"), max_length=64, blank=True)
    finished_at = models.DateTimeField(pgettext_lazy("when a deal (партия) was", "finished"),
                                       auto_now_add=True)

    class Meta:
        ordering = ("game", "number")
        verbose_name = _("finished deal")
        verbose_name_plural = _("finished deals")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_record_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} deal {self.number}"


CHAT_MAX_LENGTH = 300


class ChatMessage(models.Model):
    """A line of the table chat: free text, or a quick phrase (a key, worded in each
    reader's language)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+", verbose_name=_("author"))
    text = models.CharField(_("text"), max_length=CHAT_MAX_LENGTH, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=16, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    shown: str  # not a column: what it says to its reader, set before a render (present)

    class Meta:
        ordering = ("game", "at", "pk")
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"{self.game_id} {self.author_id}: {self.text or self.phrase}"


class ChatMute(models.Model):
    """`user` no longer reads what `muted` writes, at any table."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")

    class Meta:
        verbose_name = _("muted player")
        verbose_name_plural = _("muted players")
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class DeadlineSweep(models.Model):
    """One row: when the deadline sweep last ran (games.services.clocks). A longer gap than
    its grace means the site could not play timeouts, and the clocks move on by it."""

    last_run = models.DateTimeField(_("last run"), null=True, blank=True)

    class Meta:
        verbose_name = _("deadline sweep")
        verbose_name_plural = _("deadline sweeps")

    def __str__(self) -> str:
        return f"deadline sweep at {self.last_run}"


class Tournament(Invited, Clocked, models.Model):
    """A tournament: rounds of tables of one rule preset, paired by games.tournament
    (docs/design.md, "Tournaments"); games.services.tournament changes it."""

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("a tournament's status (турнир)", "open for entries")
        PLAYING = "playing", pgettext_lazy("a tournament's status (турнир)", "playing")
        FINISHED = "finished", pgettext_lazy("a tournament's status (турнир)", "finished")
        CANCELLED = "cancelled", pgettext_lazy("a tournament's status (турнир)", "cancelled")

    name = models.CharField(_("name"), max_length=80)
    preset = models.ForeignKey(RulePreset, on_delete=models.PROTECT, related_name="tournaments",
                               verbose_name=_("rule preset"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind, default=Kind.SWISS)
    table_size = models.PositiveSmallIntegerField(
        _("players per table"), default=2, validators=[MinValueValidator(2), MaxValueValidator(6)])
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=4, validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text=_("A round robin plays as many rounds as its field needs."))
    deals = models.PositiveSmallIntegerField(_("deals per table"), default=1,
                                             validators=[MinValueValidator(1)])
    time_control = models.CharField(_("time control"), max_length=4, choices=TimeControl,
                                    default=TimeControl.MOVE)
    move_time = models.DurationField(
        _("time per move"), default=timedelta(days=1),
        validators=[MinValueValidator(MIN_MOVE_TIME), MaxValueValidator(MAX_MOVE_TIME)])
    bank_time = models.DurationField(_("time bank"), null=True, blank=True)
    increment = models.DurationField(_("time added per move"), null=True, blank=True)
    round_time = models.DurationField(
        _("time per round"), default=timedelta(days=3), validators=[MinValueValidator(MIN_MOVE_TIME)],
        help_text=_("When it runs out, an unfinished table is lost by the player to act."))
    starts_at = models.DateTimeField(_("starts"), null=True, blank=True,
                                     help_text=_("Empty: when an administrator starts it."))
    join_until = models.DateTimeField(_("entries close"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    bots_fill = models.BooleanField(
        _("computer players fill short tables"), default=False,
        help_text=_("Casual tournaments only: players left over sit with computer players "
                    "rather than sitting out."))
    min_rating = models.FloatField(_("lowest rating"), null=True, blank=True)
    established_only = models.BooleanField(
        _("established ratings only"), default=False,
        help_text=_("Only players whose rating is no longer provisional may join."))
    max_players = models.PositiveSmallIntegerField(_("most players"), default=64,
                                                   validators=[MinValueValidator(2)])
    private = models.BooleanField(_("private"), default=False,
                                  help_text=_("Among friends: only holders of the link may join."))
    invite_token = models.CharField(_("invite token"), max_length=32, default=new_invite_token,
                                    editable=False)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.OPEN,
                              db_index=True)
    current_round = models.PositiveSmallIntegerField(_("round"), default=0)
    round_deadline = models.DateTimeField(_("round ends"), null=True, blank=True, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, related_name="tournaments_created",
                                   verbose_name=_("created by"))
    created_at = models.DateTimeField(pgettext_lazy("when a tournament (турнир) was", "created"), auto_now_add=True)
    started_at = models.DateTimeField(pgettext_lazy("when a tournament (турнир) was", "started"), null=True, blank=True)
    finished_at = models.DateTimeField(pgettext_lazy("when a tournament (турнир) was", "finished"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Entry(models.Model):
    """A player in a tournament; withdrawn players keep their standing, unpaired."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="entries", verbose_name=_("player"))
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        ordering = ("tournament", "seed", "joined_at", "pk")
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
        ]

    def __str__(self):
        return f"{self.tournament_id}: {self.player_id}"


class TournamentRound(models.Model):
    """A round: its tables start together; `byes` holds the players sitting it out."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    byes = models.JSONField(_("byes"), default=list, blank=True)
    started_at = models.DateTimeField(pgettext_lazy("when a round (тур) was", "started"))
    deadline = models.DateTimeField(_("deadline"))
    finished_at = models.DateTimeField(pgettext_lazy("when a round (тур) was", "finished"), null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self):
        return f"{self.tournament_id} round {self.number}"


class RoundTable(models.Model):
    """A table of a round: its game, and once finished its places (player ids, best first,
    each a list of players sharing it) and deals lost per player."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    board = models.PositiveSmallIntegerField(_("board"))
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="round_table")
    places = models.JSONField(_("places"), null=True, blank=True)
    deals_lost = models.JSONField(_("deals lost"), default=dict, blank=True)

    class Meta:
        ordering = ("round", "board")
        verbose_name = _("round table")
        verbose_name_plural = _("round tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="round_board_unique"),
        ]

    def __str__(self):
        return f"{self.round} board {self.board}"


class PushSubscription(models.Model):
    """One device (a browser's push subscription) on which a player asked to be notified
    (games.services.push); dropped when the push service says it is gone."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)  # one per device
    p256dh = models.CharField(max_length=200)  # the browser's public key (RFC 8291)
    auth = models.CharField(max_length=100)  # its authentication secret
    created_at = models.DateTimeField(auto_now_add=True)
    # Failed sends in a row (services.push.MAX_FAILURES of them drop the device).
    failures = models.PositiveSmallIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self):
        return f"{self.player_id}: {self.endpoint[:60]}"

    def info(self) -> dict:
        """As pywebpush's encryption takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
