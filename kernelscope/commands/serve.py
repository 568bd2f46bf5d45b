"""`kernelscope serve`: rewards over HTTP for trainers (OpenRLHF's remote reward protocol)."""

from __future__ import annotations

import click

from kernelscope.commands._common import exits_2_on_error, fail


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: all).")
@click.option("--port", type=click.IntRange(0, 65535), default=5000, show_default=True,
              help="Port to listen on (0: any free port; the URL is printed).")
@click.option("--workers", type=click.IntRange(1, None), default=4, show_default=True,
              help="Samples scored at once (compile in parallel; GPU runs share one worker per GPU).")
@click.option("--queue-size", type=click.IntRange(1, None), default=256, show_default=True,
              help="Samples that may wait; a request that does not fit is refused with 503.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(0, None, min_open=True), default=600.0,
              show_default=True, help="Seconds a request may take before it is answered with 504.")
@click.option("--reward", "reward_spec", metavar="MODULE:FUNCTION", default=None,
              help="Serve this reward function (OpenRLHF's shape) instead of kernelscope.rl's.")
@exits_2_on_error
def serve(host, port, workers, queue_size, timeout_s, reward_spec):
    """Serve rewards: POST {"query", "prompts", "labels"} to /get_reward, get {"rewards", ...} back.

    For OpenRLHF 0.11: --reward.remote_url http://HOST:PORT/get_reward (before 0.11: --remote_rm_url).
    The default reward reads KERNELSCOPE_REWARD_MODE (static|full), KERNELSCOPE_CORPUS (default: the
    corpus shipped with kernelscope) and KERNELSCOPE_RANKER; a bad setting, a missing corpus or full mode
    without a GPU stops it at start-up.
    """
    from kernelscope.serve import RewardServer, RewardService
    from kernelscope.serve.rewards import default_reward_fn, load_reward_fn

    if not reward_spec:  # the default reward's setup errors belong here, not in every request's answer
        from kernelscope.rl.adapters import check_environment

        check_environment()
    reward_fn = load_reward_fn(reward_spec) if reward_spec else default_reward_fn()
    service = RewardService(reward_fn, workers=workers, queue_size=queue_size, timeout_s=timeout_s)
    try:
        server = RewardServer((host, port), service)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    click.echo(f"kernelscope: serving rewards at {server.url}/get_reward "
               f"({workers} workers, queue {queue_size}, timeout {timeout_s:g} s)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        service.close()
