"""The Ray backend: the same batch on a Ray cluster (the `ray` extra).

Compilation runs as Ray tasks of one CPU each; execution on actors of one GPU each (Ray sets each
actor's CUDA_VISIBLE_DEVICES, so the actor's device 0 is its own GPU, and the actor keeps its worker
process and CUDA context across candidates). An actor that dies is restarted by Ray; the candidate it
held goes back to the queue through the scheduler, which also drops any second result for a candidate,
so nothing is lost or counted twice. Problem specs are read by path on the actors' nodes: the cluster
needs the problem folders at the same paths (a shared file system).
"""

from __future__ import annotations

from kernelscope.batch.scheduler import Scheduler
from kernelscope.errors import KernelscopeError, ToolMissingError, UsageError


class _GpuActor:
    """Holds one GPU session for the actor's lifetime."""

    def __init__(self, evaluator):
        self.session = evaluator.open(0)      # Ray restricted CUDA_VISIBLE_DEVICES to this actor's GPU

    def warm_up(self) -> None:
        self.session.warm_up()

    def ready(self) -> bool:
        """Answered once the actor is alive again (retried by Ray across the actor's restarts)."""
        return True

    def bind(self, evaluator):
        return evaluator.bound_to_device()

    def evaluate(self, prepared):
        return self.session.evaluate(prepared)


def _prepare(evaluator, item):
    return evaluator.prepare(item)


class RayGpus:
    """Actors of one GPU each on a Ray cluster, kept until `close()` (each holds a CUDA context)."""

    def __init__(self, evaluator, *, address: str | None = None, gpus: int | None = None, actor_restarts: int = 3):
        ray = self._ray = _import_ray()
        self._started_here = not ray.is_initialized()
        if self._started_here:
            ray.init(address=address, log_to_driver=False)
        self.actors = []
        try:
            available = int(ray.cluster_resources().get("GPU", 0))
            if available < 1:
                raise ToolMissingError("the Ray cluster offers no GPUs (start its nodes with --num-gpus)")
            if gpus is not None and not 1 <= gpus <= available:
                # an actor that cannot be placed would hold its candidates forever
                raise UsageError(f"--workers {gpus}: the Ray cluster offers {available} GPU(s)")
            # max_task_retries=0: a candidate is never re-run behind the scheduler's back; only the
            # `ready` probe is retried while Ray restarts the actor
            ready = ray.method(max_task_retries=actor_restarts + 1)(_GpuActor.ready)
            actor_class = ray.remote(num_gpus=1, max_restarts=actor_restarts, max_task_retries=0)(
                type("GpuActor", (_GpuActor,), {"ready": ready}))
            self.actors = [actor_class.remote(evaluator) for _ in range(gpus or available)]
            for actor in self.actors:
                actor.warm_up.remote()     # failures resurface, and are handled, on the actor's first candidate
            # compile for the GPUs the actors see, not for whatever the CPU-only tasks would guess
            self._evaluator_ref = ray.put(ray.get(self.actors[0].bind.remote(evaluator)))
            self._prepare = ray.remote(num_cpus=1, max_retries=2)(_prepare)
        except BaseException:
            self.close()
            raise

    def run(self, items, *, max_attempts: int = 3):
        """Yield a BatchOutcome per item as each finishes."""
        yield from _drive(self._ray, list(items), self._evaluator_ref, self.actors, self._prepare, max_attempts)

    def close(self) -> None:
        for actor in self.actors:       # free the GPUs now, not when the handles are collected
            self._ray.kill(actor, no_restart=True)
        self.actors = []
        if self._started_here:
            self._ray.shutdown()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_ray(items, evaluator, *, address: str | None = None, gpus: int | None = None, max_attempts: int = 3):
    """One batch on actors started for it (default: one per GPU of the cluster) and stopped after it."""
    with RayGpus(evaluator, address=address, gpus=gpus) as cluster:
        yield from cluster.run(items, max_attempts=max_attempts)


def _drive(ray, items, evaluator_ref, actors, prepare_task, max_attempts):
    scheduler = Scheduler(items, range(len(actors)), max_attempts=max_attempts)
    pending = {prepare_task.remote(evaluator_ref, item): ("prepare", item, None) for item in items}
    try:
        while not scheduler.finished:
            for slot, prepared in scheduler.assignments():
                pending[actors[slot].evaluate.remote(prepared)] = ("run", prepared, slot)
            [ref], _ = ray.wait(list(pending), num_returns=1)
            kind, work, slot = pending.pop(ref)
            try:
                value, error = ray.get(ref), None
            except ray.exceptions.RayError as exc:
                value, error = None, exc
            if kind == "prepare":
                if isinstance(error, KernelscopeError):   # Ray's task errors also subclass the cause
                    raise error
                yield from (scheduler.prepare_failed(work, error) if error else scheduler.prepared(value))
            elif kind == "ready":
                if error is None:
                    scheduler.release(slot)
                else:
                    yield from scheduler.retire(slot)
            elif error is not None:
                # new work sent while the actor restarts would fail at once: wait until it answers
                yield from scheduler.run_failed(slot, work, error, release=False)
                if slot in scheduler.live_slots:
                    pending[actors[slot].ready.remote()] = ("ready", None, slot)
            else:
                yield from scheduler.ran(slot, work, value)
    finally:
        for ref in pending:
            ray.cancel(ref, force=False)


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ToolMissingError("the ray backend needs Ray: pip install 'kernelscope[ray]'") from None
    return ray
