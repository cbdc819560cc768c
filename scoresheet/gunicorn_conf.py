"""gunicorn's configuration for ``manage.py serve``: the app loaded and warmed in the master
before the workers fork, then each worker warmed before its first request (scoresheet/warm.py).

With ``preload_app`` the code is loaded once, by the master: after an upgrade, restart the
server (a SIGHUP would fork new workers from the old code; docs/deploy.md).

The access log (``AccessLog``) names the client as the rate limit sees it (behind the proxy, from
X-Forwarded-For when TRUSTED_PROXIES says so) and leaves out the proxy's health checks that
passed: one line per request a person made, not one a second per proxy.
"""

import gc
import logging

from gunicorn.glogging import Logger

preload_app = True
# gunicorn 25's control socket is one path per user ($HOME/.gunicorn/gunicorn.ctl): several app
# servers on one machine would take it from each other. Nothing here uses it.
control_socket_disable = True
# A worker is replaced by a fresh fork of the warmed master after about a thousand requests
# (each its own number, so that they never restart together): whatever a long session's files
# left in its memory (Python keeps what it freed for itself) goes with it. Without this, a
# worker grew from about 65 MB to 106–159 MB over a server's life (benchmarks/memory.py).
max_requests = 1000
max_requests_jitter = 200

log = logging.getLogger("gunicorn.error")


def on_starting(server):
    """In the master, once the app is loaded, before the listening socket opens."""
    from scoresheet import warm

    done = warm.warm()
    log.info(
        "Warmed in %(seconds)s s: %(templates)s templates, %(languages)s languages, "
        "%(requests)s requests",
        done,
    )
    # What the master loaded and warmed lives as long as the server: once its garbage is
    # collected, it is kept out of the collector's sight (gc.freeze, as Python's documentation
    # advises before a fork), so that a worker's collections walk only what its requests made.
    # A change of rules on a 10,000-hand session spent a tenth of its time in collections
    # walking the app's objects; and a collection no longer writes to the pages of memory the
    # workers share with the master.
    gc.collect()
    gc.freeze()


def pre_fork(server, worker):
    """No database connection may cross a fork: each worker opens its own."""
    from django.db import connections

    connections.close_all()


def post_worker_init(worker):
    """In the worker, before it takes a request."""
    from scoresheet import warm

    done = warm.warm_worker()
    log.info("Worker %s warmed in %s s", worker.pid, done["seconds"])


class AccessLog(Logger):
    """gunicorn's logger, with the real client in the access log and no passing health check."""

    def access(self, resp, req, environ, request_time):
        if environ.get("PATH_INFO") == "/healthz" and str(resp.status).startswith("200"):
            return
        super().access(resp, req, environ, request_time)

    def atoms(self, resp, req, environ, request_time):
        from scoresheet import throttle

        atoms = super().atoms(resp, req, environ, request_time)
        atoms["h"] = throttle.client_address(environ) or "-"
        return atoms


logger_class = AccessLog
