"""The worker process the analysis of finished matches runs in (service/analysis.py).

A deal's analysis is seconds of pure-Python CPU, a match's minutes: in the bot's process, even
in a thread, the GIL would stall the event loop and every click with it. So each deal is a job
of a worker process (bot/render_pool.py's, without the palette), one at a time, made never to
fall back to threads: while no worker can run, the job fails and the match's analysis says so
(asking again queues it anew).
"""

from __future__ import annotations

from typing import Any

from service.analysis import Job

from .render_pool import Pool

# The worker's niceness: nothing waits on an analysis the way a click waits on its answer.
NICENESS = 19
# A worker this long on one deal is hung (a deal takes seconds, bulgarian up to half a minute
# on a quiet core; at the lowest priority on a busy machine, far longer): it is killed.
DEAL_TIMEOUT = 1800.0


class AnalysisPool:
    """One low-priority worker process for the analysis, started at its first job."""

    def __init__(self) -> None:
        self.pool = Pool("belote-analysis", 1, niceness=NICENESS, timeout=DEAL_TIMEOUT,
                         threads=False, warm=False)

    async def run(self, job: Job, record: dict[str, Any], index: int) -> dict[str, Any]:
        answer: dict[str, Any] = await self.pool.run(job, record, index)
        return answer

    def shutdown(self) -> None:
        self.pool.shutdown()
