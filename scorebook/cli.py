"""The `scorebook` command line, on the Python API (`recorder.Scorebook`).

Read-only commands (matches, scores, state, export, verify, token list, players, tournament
list/standings/export) open the database without migrating it: a database behind the schema's head is an
error naming `scorebook migrate`. The others (serve, migrate, import, demo, token create/revoke, the club's
writes) bring the schema to head first.

Start-up is kept short: this module imports only typer at load time; the database layer, rich tables,
and the web stack (FastAPI, uvicorn, Dash) are imported inside the commands that use them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from recorder.facade import Scorebook

app = typer.Typer(help="Scorebook: record, replay and verify tabletop tile-game matches.", no_args_is_help=True)
token_app = typer.Typer(help="Manage API tokens.", no_args_is_help=True)
app.add_typer(token_app, name="token")
players_app = typer.Typer(help="The club's registered players (a list without a subcommand).",
                          invoke_without_command=True)
app.add_typer(players_app, name="players")
tournament_app = typer.Typer(help="Tournaments: create, enter, pair, results, standings, export.",
                             no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")

Db = Annotated[
    str | None,
    typer.Option("--db", help="Database URL or SQLite path (default: $SCOREBOOK_DATABASE_URL, else var/scorebook.db)"),
]
At = Annotated[int | None, typer.Option("--at", help="As it was right after this seq")]


def _open(db: str | None, *, migrate: bool) -> Scorebook:
    """The database, migrated to head (`migrate`) or checked to be at head (read-only commands)."""
    from recorder.errors import SchemaBehind
    from recorder.facade import Scorebook

    try:
        return Scorebook.open(db, migrate=migrate)
    except SchemaBehind as e:
        raise _fail(e.message) from e


def _read(db: str | None) -> Scorebook:
    return _open(db, migrate=False)


def _write(db: str | None) -> Scorebook:
    return _open(db, migrate=True)


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)  # plain: rich would wrap a long reason mid-word
    return typer.Exit(code)


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def _print(text: str, *, stderr: bool = False, **kwargs: Any) -> None:
    from rich.console import Console

    Console(stderr=stderr).print(text, highlight=False, **kwargs)


@app.command()
def serve(
    db: Db = None,
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port")] = 8000,
    demo: Annotated[int, typer.Option(help="On an empty database, first record this many demo matches per game")] = 0,
    print_token: Annotated[
        bool, typer.Option(help="Print the local recorder token (kept between starts in the data directory)")
    ] = False,
    rotate_token: Annotated[
        bool, typer.Option(help="Make a new local recorder token and revoke the old one (implies --print-token)")
    ] = False,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Worker processes answering requests. On SQLite one serves best "
                                              "(a process's appenders take turns; across processes they wait in "
                                              "SQLite's busy handler); with PostgreSQL, about one per core to spare. "
                                              "Not for a SQLite database in memory")
    ] = 1,
) -> None:
    """Upgrade the schema to head, then serve the API (and the dashboard) on one port."""
    import uvicorn

    from scorebook.app import WORKER_APP, build_app

    sb = _write(db)
    _refuse_unprotected(sb)
    url = sb.engine.url
    if workers > 1 and url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
        sb.close()
        raise _fail("--workers needs a database the worker processes can open: not a SQLite database in memory")
    try:
        _ = sb.sessions  # the session secret and lifetime: a problem shows now, not at the first sign-in
    except (OSError, ValueError) as e:
        raise _fail(f"sign-in sessions: {e}") from e
    if demo:
        from recorder.demo import seed_if_empty

        made = seed_if_empty(sb, demo)
        if made:
            _print(f"Recorded {made} demo matches.")
    if print_token or rotate_token:
        from recorder.access.auth import local_token
        from recorder.access.sessions import data_dir

        token, made = local_token(sb.engine, data_dir(sb.engine.url), rotate=rotate_token)
        kept = data_dir(sb.engine.url) / "local-token"
        _print(f"Local recorder token ({'new; any earlier one is revoked' if made else 'the same as before'}, "
               f"kept in {kept}): [bold]{token}[/bold]")
        _print(
            f"  curl -H 'Authorization: Bearer {token}' -X POST http://{host}:{port}/api/matches/import "
            "--data-binary @match.jsonl",
            soft_wrap=True,
        )
    _print(f"Scorebook on http://{host}:{port}/  (sign in: http://{host}:{port}/login, "
           f"API docs: http://{host}:{port}/docs)")
    from recorder.readmodels.projector import Follower

    # keeps the read models current while the server runs
    follower = Follower(sb.projector, warm=sb.fact_reader.warm).start()
    try:
        if workers > 1:  # each worker opens the database this process migrated (scorebook.app.worker_app)
            os.environ["SCOREBOOK_DATABASE_URL"] = url.render_as_string(hide_password=False)
            _serve_workers(uvicorn.Config(WORKER_APP, factory=True, workers=workers, host=host, port=port,
                                          log_level="warning"))
        else:
            uvicorn.run(build_app(sb), host=host, port=port, log_level="warning")
    finally:
        follower.stop()


def _serve_workers(config: Any) -> None:
    """`uvicorn.run` with workers, the listening socket set TCP_NODELAY first: the workers get it by its file
    descriptor, and asyncio then does not set it on the connections they accept (Linux lets them inherit it
    from the listening socket), so every answer on a kept-alive connection waited 40 ms for a delayed ACK."""
    import socket

    from uvicorn.supervisors import Multiprocess

    sock = config.bind_socket()
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        Multiprocess(config, sockets=[sock]).run()
    except KeyboardInterrupt:
        pass


@app.command()
def follow(
    match: Annotated[str | None, typer.Argument(help="Follow this match only (default: every match)")] = None,
    db: Db = None,
    from_start: Annotated[bool, typer.Option("--from-start", help="First print the events recorded already")] = False,
    max_events: Annotated[int | None, typer.Option(min=1, help="Stop after this many events")] = None,
    timeout: Annotated[float | None, typer.Option(min=0, help="Stop after this many seconds")] = None,
) -> None:
    """Print events as they are recorded, one line each: position, match#seq, type, who recorded it and what
    happened. Reads the database, woken as the server's event streams are (docs/LIVE.md); Ctrl-C ends it."""
    from recorder.errors import StoreError
    from recorder.live import follow_lines

    sb = _read(db)
    try:
        for line in follow_lines(sb, match, from_start=from_start, max_events=max_events, timeout=timeout):
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    except StoreError as e:
        raise _fail(e.message) from e
    finally:
        sb.close()


@app.command()
def migrate(db: Db = None) -> None:
    """Upgrade the database schema to head."""
    _write(db).close()
    _print("schema at head")


@app.command("import")
def import_(
    files: Annotated[list[Path], typer.Argument(help="Match logs (JSON Lines)", exists=True, dir_okay=False)],
    db: Db = None,
    recorded_by: Annotated[str, typer.Option(help="recorded_by for lines that carry none")] = "cli",
) -> None:
    """Import match logs, each as a new match; prints the match ids. All files are checked, then stored in
    one transaction: one refused line, or any other error, stores nothing. A file already imported (or an
    export of a match already here) prints the match it is, marked "already stored"."""
    from recorder.errors import StoreError
    from recorder.facade import check_files

    texts = []
    for f in files:
        try:
            texts.append((f.name, f.read_text(encoding="utf-8")))
        except UnicodeDecodeError as e:
            raise _fail(f"{f}: not UTF-8 text") from e
    try:
        checked = check_files(texts, recorded_by)  # before the database is opened: a refused file touches nothing
    except StoreError as e:
        raise _fail(f"{e.message} (nothing was imported)") from e
    sb = _write(db)
    try:
        results = sb.store.store_many(checked)
    except StoreError as e:
        raise _fail(f"{e.message} (nothing was imported)") from e
    for r in results:
        note = ""
        if r["existing"]:
            note = f"\talready stored (+{r['added']} events)" if r["added"] else "\talready stored"
        sys.stdout.write(r["match_id"] + note + "\n")


@app.command()
def export(
    match_id: str,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="File to write (default stdout)")] = None,
    db: Db = None,
) -> None:
    """Export a match log as JSON Lines, hashes included."""
    from recorder.errors import StoreError

    try:
        lines = _read(db).export_lines(match_id)
    except StoreError as e:
        raise _fail(e.message) from e
    if output:
        output.write_text("".join(lines), encoding="utf-8")
        _print(f"{len(lines)} events written to {output}", stderr=True)
    else:
        sys.stdout.write("".join(lines))


@app.command()
def scores(
    match_id: str, at: At = None, as_json: Annotated[bool, typer.Option("--json")] = False, db: Db = None
) -> None:
    """A match's scores (at a seq)."""
    from recorder.errors import StoreError

    try:
        sheet = _read(db).scores(match_id, at)
    except StoreError as e:
        raise _fail(e.message) from e
    if as_json:
        _print_json(sheet)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{sheet['game']} · seq {sheet['seq']} · {sheet['status'].replace('_', ' ')}")
    table.add_column("player")
    for r in sheet["rounds"]:
        table.add_column(f"R{r['number']}", justify="right")
    table.add_column("total", justify="right", style="bold")
    for p in sheet["players"]:
        mark = " ★" if p["id"] in sheet["winners"] else ""
        table.add_row(p["name"] + mark, *(str(r["scores"].get(p["id"], 0)) for r in sheet["rounds"]), str(p["score"]))
    Console().print(table)


@app.command()
def state(match_id: str, at: At = None, db: Db = None) -> None:
    """The reducer's state as JSON (at a seq)."""
    from recorder.errors import StoreError

    try:
        found = _read(db).state(match_id, at)
    except StoreError as e:
        raise _fail(e.message) from e
    _print_json({"match_id": match_id, "seq": found["seq"], "state": found["state"]})


@app.command()
def verify(
    target: Annotated[str | None, typer.Argument(help="A match id, or an exported file")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every stored match and club stream: a summary")] = False,
    db: Db = None,
) -> None:
    """Check a hash chain: of a stored match, of an exported file, or of every match (--all). Exits 1 when broken."""
    from recorder.errors import StoreError

    if all_ or target is None:
        if target is not None or not all_:
            raise _fail("give a match id or a file, or --all", 2)
        _verify_all(db)
        return
    path = Path(target)
    if path.is_file():
        from recorder.log.file import check_chain, parse_jsonl
        from recorder.store.bag import verified

        try:
            envelopes = [item.obj for item in parse_jsonl(path.read_text(encoding="utf-8"))]
        except StoreError as e:
            raise _fail(f"{path}: {e.message}") from e
        result = verified(check_chain(envelopes), envelopes)  # a committed bag: its draws checked too
    else:
        try:
            result = _read(db).verify(target)
        except StoreError as e:
            raise _fail(e.message) from e
    _print_json(result.as_json())
    if not result.ok:
        raise typer.Exit(1)


def _verify_all(db: str | None) -> None:
    summary = _read(db).verify_all()
    _print_json(summary.as_json())
    if not summary.ok:
        raise typer.Exit(1)


REPAIR_HINT = "`scorebook doctor --repair` puts them back"


def _refuse_unprotected(sb: Scorebook) -> None:
    """`serve` writes only to an events table the database itself keeps append-only."""
    missing = sb.missing_triggers()
    if missing:
        sb.close()
        raise _fail(
            f"the events table is not append-only: trigger(s) {', '.join(missing)} missing or altered; "
            f"not serving. `scorebook doctor` checks every match's chain, {REPAIR_HINT}"
        )


@app.command()
def doctor(
    repair: Annotated[bool, typer.Option("--repair", help="Put missing append-only triggers back")] = False,
    db: Db = None,
) -> None:
    """Check the database: schema at head, append-only triggers, every match's and club stream's hash chain.
    Exits 1 when something is wrong. With --repair, missing triggers are put back (the chains are only reported)."""
    from recorder.errors import SchemaBehind
    from recorder.facade import Scorebook
    from recorder.sql.migrate import current_revisions

    try:
        sb = Scorebook.open(db, migrate=False)
    except SchemaBehind as e:
        typer.echo(f"schema: {e.message}")
        raise typer.Exit(1) from e
    with sb:
        typer.echo(f"schema: at head ({', '.join(current_revisions(sb.engine))})")
        wrong = False
        missing = sb.missing_triggers()
        if missing and repair:
            sb.repair_triggers()
            still = sb.missing_triggers()
            typer.echo(f"append-only triggers: {', '.join(missing)} put back" if not still
                       else f"append-only triggers: MISSING {', '.join(still)} after the repair")
            wrong = bool(still)
        elif missing:
            typer.echo(f"append-only triggers: MISSING or altered: {', '.join(missing)}; {REPAIR_HINT}")
            wrong = True
        else:
            typer.echo("append-only triggers: present")
        summary = sb.verify_all()
        counted = f"{summary.matches} matches, {summary.streams} club streams, {summary.events} events"
        if summary.ok:
            typer.echo(f"hash chains: {counted}, all intact")
        else:
            typer.echo(f"hash chains: {counted}, BROKEN in {len(summary.broken)}:")
            for b in summary.broken:
                owner = b.get("match_id") or f"club stream {b['stream_id']}"
                typer.echo(f"  {owner} at seq {b['first_bad_seq']}: {b['reason']}")
            wrong = True
    if wrong:
        raise typer.Exit(1)


@app.command()
def matches(
    game: Annotated[str | None, typer.Option()] = None,
    player: Annotated[str | None, typer.Option()] = None,
    status: Annotated[str | None, typer.Option()] = None,
    limit: Annotated[int, typer.Option()] = 50,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    db: Db = None,
) -> None:
    """List matches, newest first."""
    items, total = _read(db).matches(game, player, status, limit, 0)
    if as_json:
        _print_json({"items": items, "total": total})
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{total} matches")
    for c in ("match id", "game", "players", "status", "winners", "events", "started"):
        table.add_column(c)
    for m in items:
        names = ", ".join(p["name"] for p in m["players"])
        table.add_row(m["match_id"], m["game"], names, m["status"], ", ".join(m["winners"]), str(m["seq"]),
                      m["created_at"][:16].replace("T", " "))
    Console().print(table)


@app.command()
def demo(
    matches_per_game: Annotated[int, typer.Option("--matches", help="Matches per game")] = 3,
    seed: Annotated[int, typer.Option(help="Random seed")] = 1,
    db: Db = None,
) -> None:
    """Record demo matches of every game, played by a seeded random legal player."""
    from recorder.demo import record_demo

    made = record_demo(_write(db), matches_per_game, seed)
    _print(f"Recorded {made} demo matches.")


@app.command()
def rebuild(
    name: Annotated[str, typer.Argument(help="The read model: match_facts, snapshots, or all")] = "all",
    resume: Annotated[bool, typer.Option(help="Carry on from where an interrupted rebuild stopped")] = False,
    workers: Annotated[int | None, typer.Option(help="Processes that fold (default: one per core for a "
                                                     "large log; 0: this one only)", min=0)] = None,
    db: Db = None,
) -> None:
    """Recompute the read models from the log, with a progress bar. The server may keep running: each batch
    of matches is its own transaction, and nothing is emptied first."""
    import time

    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from recorder.errors import StoreError

    sb = _write(db)
    started = time.perf_counter()
    with Progress(TextColumn("rebuilding {task.description}"), BarColumn(), TextColumn("{task.completed:,} of "
                  "{task.total:,} events"), TimeRemainingColumn(), transient=True) as bar:
        task = bar.add_task(name, total=1)  # until the rebuild knows its events

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            reached = sb.rebuild(name, progress, resume, workers)
        except StoreError as e:
            raise _fail(e.message) from e
    seconds = time.perf_counter() - started
    _print(f"{name}: the read models hold the log up to position {reached:,} ({seconds:.1f} s)")


@app.command()
def backup(
    file: Annotated[Path, typer.Argument(help="The backup file to write (JSON Lines)", dir_okay=False)],
    with_tokens: Annotated[bool, typer.Option(help="Also the API tokens (their SHA-256 only)")] = False,
    db: Db = None,
) -> None:
    """Write every match (ids, created times, events with their hashes and event_ids, imports) to FILE."""
    import os

    sb = _read(db)
    partial = file.with_name(f".{file.name}.partial")
    lines = 0
    with partial.open("w", encoding="utf-8") as out:
        for line in sb.backup(with_tokens):
            out.write(line)
            lines += 1
    os.replace(partial, file)  # a backup cut short by a crash never takes the place of a whole one
    _print(f"{lines - 2} lines of matches, events{' and tokens' if with_tokens else ''} written to {file}",
           stderr=True)


@app.command()
def restore(
    file: Annotated[Path, typer.Argument(help="A file from `scorebook backup`", exists=True, dir_okay=False)],
    db: Db = None,
) -> None:
    """Restore a backup into this database (empty or not): match ids and every hash kept; matches already
    here are not stored twice, so restoring twice is safe. All or nothing."""
    from recorder.errors import StoreError

    sb = _write(db)
    try:
        counts = sb.restore(file.read_text(encoding="utf-8"))
    except StoreError as e:
        raise _fail(f"{file}: {e.message}") from e
    except UnicodeDecodeError as e:
        raise _fail(f"{file}: not UTF-8 text") from e
    _print_json(counts)


@token_app.command("create")
def token_create(
    name: str,
    role: Annotated[str, typer.Option(help="recorder, referee or admin")] = "recorder",
    db: Db = None,
) -> None:
    """Create a token; it is printed once and stored only hashed."""
    from recorder.errors import StoreError

    try:
        token = _write(db).create_token(name, role)
    except (ValueError, StoreError) as e:
        raise _fail(str(e)) from e
    sys.stdout.write(token + "\n")


@token_app.command("list")
def token_list(db: Db = None) -> None:
    """List tokens (never their secrets)."""
    _print_json(_read(db).list_tokens())


@token_app.command("revoke")
def token_revoke(token_id: int, db: Db = None) -> None:
    """Revoke a token by id."""
    if not _write(db).revoke_token(token_id):
        raise _fail(f"no active token {token_id}")
    _print(f"token {token_id} revoked")


# -- the club: players and tournaments (recorder/clubs/service.py) ----------------------------------------------------

By = Annotated[str, typer.Option("--by", help="who records it (the events' recorded_by)")]


def _club(db: str | None, write: bool) -> Any:
    return (_write(db) if write else _read(db)).clubs


def _club_call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    from recorder.errors import StoreError

    try:
        return fn(*args, **kwargs)
    except StoreError as e:
        raise _fail(e.message) from e


@players_app.callback()
def players(ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json")] = False, db: Db = None) -> None:
    """List the registered players (merged ids shown under the one they went into)."""
    if ctx.invoked_subcommand is not None:
        return
    found = [p.to_json() for p in _club(db, False).club_players()]
    if as_json:
        _print_json(found)
        return
    for p in found:
        extra = [f"club {p['club']}"] if p["club"] else []
        extra += [f"also {', '.join(p['aliases'])}"] if p["aliases"] else []
        _print(f"{p['id']}\t{p['name']}" + (f"\t({'; '.join(extra)})" if extra else ""))


@players_app.command("add")
def players_add(player: str, name: str, club: Annotated[str | None, typer.Option()] = None, by: By = "cli",
                db: Db = None) -> None:
    """Register a player under a stable id."""
    _print_json(_club_call(_club(db, True).register_player, player, name, by, club=club))


@players_app.command("alias")
def players_alias(player: str, alias: str, by: By = "cli", db: Db = None) -> None:
    """Add a name that older matches use for this player."""
    _print_json(_club_call(_club(db, True).add_alias, player, alias, by))


@players_app.command("merge")
def players_merge(player: str, into: str, by: By = "cli", db: Db = None) -> None:
    """Merge PLAYER into INTO (the same person): every read follows it."""
    _print_json(_club_call(_club(db, True).merge_players, player, into, by))


@tournament_app.command("list")
def tournament_list(db: Db = None) -> None:
    """Every tournament, latest first."""
    _print_json(_club(db, False).tournaments())


@tournament_app.command("create")
def tournament_create(
    name: str,
    game: Annotated[str, typer.Option(help="the game played at every table")],
    rounds: Annotated[int, typer.Option(help="how many rounds")],
    format: Annotated[str, typer.Option("--format", help="swiss (two players a table) or tables (3 to 8)")] = "swiss",
    table_size: Annotated[int, typer.Option(help="players a table (swiss: 2)")] = 2,
    date: Annotated[str | None, typer.Option(help="the day it is played, YYYY-MM-DD")] = None,
    tournament_id: Annotated[str | None, typer.Option("--id", help="its id (default: a new one)")] = None,
    by: By = "cli",
    db: Db = None,
) -> None:
    """Create a tournament; prints its id."""
    data: dict[str, Any] = {"name": name, "game": game, "format": format, "rounds": rounds, "table_size": table_size}
    if date:
        data["date"] = date
    _print(_club_call(_club(db, True).create_tournament, data, by, tournament_id))


@tournament_app.command("enter")
def tournament_enter(tournament_id: str, players: list[str],
                     name: Annotated[str | None, typer.Option(help="for one player not registered")] = None,
                     by: By = "cli", db: Db = None) -> None:
    """Enter registered players (or one free name with --name)."""
    clubs = _club(db, True)
    for player in players:
        _club_call(clubs.enter, tournament_id, player, by, name)
    _print(f"{len(players)} entered")


@tournament_app.command("pair")
def tournament_pair(tournament_id: str, by: By = "cli", db: Db = None) -> None:
    """Take the finished matches' results, then pair the next round; prints its tables."""
    data = _club_call(_club(db, True).pair, tournament_id, by)
    for t in data["tables"]:
        _print(f"round {data['round']} table {t['table']}: {', '.join(t['seats'])}")
    for p in data["byes"]:
        _print(f"round {data['round']} bye: {p}")


@tournament_app.command("results")
def tournament_results(tournament_id: str, by: By = "cli", db: Db = None) -> None:
    """Take the results of the tables whose matches have finished."""
    _print(f"{_club_call(_club(db, True).collect_results, tournament_id, by)} results taken")


@tournament_app.command("standings")
def tournament_standings(
    tournament_id: str,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV, for a spreadsheet")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    db: Db = None,
) -> None:
    """The standings (match points, then Buchholz, game points, spread) and the missing results."""
    clubs = _club(db, False)
    if as_csv:
        sys.stdout.write(_club_call(clubs.standings_csv, tournament_id))
        return
    rows = [s.to_json() for s in _club_call(clubs.standings, tournament_id)]
    missing = clubs.tournament_json(tournament_id)["missing_results"]
    if as_json:
        _print_json({"standings": rows, "missing": missing})
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"standings · {len(missing)} results missing" if missing else "standings")
    for c in ("#", "player", "points", "Buchholz", "game points", "spread", "played"):
        table.add_column(c, justify="right" if c not in ("player",) else "left")
    for r in rows:
        table.add_row(str(r["rank"]), r["name"], f"{r['match_points']:g}", f"{r['buchholz']:g}",
                      str(r["game_points"]), str(r["spread"]), str(r["played"]))
    Console().print(table)


@tournament_app.command("export")
def tournament_export(
    tournament_id: str,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="File to write (default stdout)")] = None,
    db: Db = None,
) -> None:
    """The whole tournament and its matches as one file, every hash included (imported by `tournament import`)."""
    text = _club_call(_club(db, False).archive, tournament_id)
    if output:
        output.write_text(text, encoding="utf-8")
        _print(f"tournament {tournament_id} written to {output}", stderr=True)
    else:
        sys.stdout.write(text)


@tournament_app.command("import")
def tournament_import(file: Path, by: By = "cli", db: Db = None) -> None:
    """Store a tournament archive: its matches under their own ids, then the tournament, every hash kept."""
    _print_json(_club_call(_club(db, True).import_archive, file.read_text(encoding="utf-8"), by))


if __name__ == "__main__":
    app()
