"""`kernelscope serve`: rewards over HTTP for trainers (OpenRLHF's remote reward protocol)."""

from __future__ import annotations

import os

import click

from kernelscope.commands._common import echo, exits_2_on_error, fail

DEFAULT_REWARD = "kernelscope.rl.adapters:reward_func"
TOKEN_VARIABLE = "KERNELSCOPE_SERVE_TOKEN"


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
@click.option("--sample-timeout", "sample_timeout_s", type=click.FloatRange(0, None, min_open=True), default=30.0,
              show_default=True, help="Seconds one sample may take; its worker is then stopped and the "
                                      "request answered 422.")
@click.option("--sample-memory-mb", type=click.IntRange(0, None), default=2048, show_default=True,
              help="Address space of a worker scoring one sample (0: no limit).")
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None,
              help="Problems that labels may name [default: KERNELSCOPE_CORPUS, else the bundled corpus].")
@click.option("--allow-spec-root", type=click.Path(exists=True, file_okay=False), default=None,
              help="Also accept labels that are spec.toml paths inside this folder.")
@click.option("--max-body-mb", type=click.FloatRange(0, None, min_open=True), default=8.0, show_default=True,
              help="Largest request body accepted (413 above it).")
@click.option("--token", envvar=TOKEN_VARIABLE, default=None, metavar="TOKEN",
              help=f"Require 'Authorization: Bearer TOKEN' on reward requests [env: {TOKEN_VARIABLE}].")
@click.option("--reward", "reward_spec", metavar="MODULE:FUNCTION", default=None,
              help="Serve this reward function (OpenRLHF's shape) instead of kernelscope.rl's; "
                   "it gets the labels as sent.")
@exits_2_on_error
def serve(host, port, workers, queue_size, timeout_s, sample_timeout_s, sample_memory_mb, corpus_dir,
          allow_spec_root, max_body_mb, token, reward_spec):
    """Serve rewards: POST {"query", "prompts", "labels"} to /get_reward, get {"rewards", ...} back.

    For OpenRLHF 0.11: --reward.remote_url http://HOST:PORT/get_reward (before 0.11: --remote_rm_url).
    The default reward reads KERNELSCOPE_REWARD_MODE (static|full), KERNELSCOPE_CORPUS (default: the
    corpus shipped with kernelscope) and KERNELSCOPE_RANKER; a bad setting, a missing corpus or full mode
    without a GPU stops it at start-up. Labels must be problem names of the corpus. Static scoring runs
    in worker processes stopped at --sample-timeout and --sample-memory-mb; full mode scores in this
    process (its GPU runs have the runner's limits).
    """
    from kernelscope.serve import LabelPolicy, RewardServer, RewardService, SampleLimits, SandboxedReward, ServerLimits
    from kernelscope.serve.rewards import default_reward_fn, load_reward_fn

    if token is not None and not token.strip():
        fail("--token must not be empty")
    limits = SampleLimits(sample_timeout_s, sample_memory_mb * 2 ** 20 or None)
    full_mode = os.environ.get("KERNELSCOPE_REWARD_MODE", "static") == "full"
    labels = None
    if reward_spec:
        load_reward_fn(reward_spec)              # a bad spec fails here, with one line
        reward_fn, where = SandboxedReward(reward_spec, limits), "worker processes"
    else:
        from kernelscope.rl.adapters import check_environment

        check_environment()   # the default reward's setup errors belong here, not in every answer
        labels = _label_policy(LabelPolicy, corpus_dir, allow_spec_root)
        if full_mode:
            reward_fn, where = default_reward_fn(), "this process (full mode)"
        else:
            reward_fn, where = SandboxedReward(DEFAULT_REWARD, limits), "worker processes"
    service = RewardService(reward_fn, workers=workers, queue_size=queue_size, timeout_s=timeout_s, labels=labels)
    server_limits = ServerLimits(max_body_bytes=int(max_body_mb * 2 ** 20), token=token)
    try:
        server = RewardServer((host, port), service, server_limits)
    except OSError as exc:
        service.close()
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    echo(f"kernelscope: serving rewards at {server.url}/get_reward ({workers} workers, queue {queue_size}, "
         f"timeout {timeout_s:g} s, samples scored in {where}"
         f"{', bearer token required' if token else ''})", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        service.close()


def _label_policy(policy_class, corpus_dir, allow_spec_root):
    from kernelscope.rl.tasks import default_corpus_dir

    folder = corpus_dir or os.environ.get("KERNELSCOPE_CORPUS") or default_corpus_dir()
    try:
        return policy_class(folder, allow_spec_root)
    except (OSError, ValueError) as exc:
        fail(f"cannot read the corpus {folder}: {exc}")
