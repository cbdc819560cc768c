"""gunicorn's configuration for ``manage.py serve``: the app loaded and warmed in the master
before the workers fork, then each worker warmed before its first request (scoresheet/warm.py).

With ``preload_app`` the code is loaded once, by the master: after an upgrade, restart the
server (a SIGHUP would fork new workers from the old code; docs/deploy.md).
"""

import logging

preload_app = True
# gunicorn 25's control socket is one path per user ($HOME/.gunicorn/gunicorn.ctl): several app
# servers on one machine would take it from each other. Nothing here uses it.
control_socket_disable = True

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


def pre_fork(server, worker):
    """No database connection may cross a fork: each worker opens its own."""
    from django.db import connections

    connections.close_all()


def post_worker_init(worker):
    """In the worker, before it takes a request."""
    from scoresheet import warm

    done = warm.warm_worker()
    log.info("Worker %s warmed in %s s", worker.pid, done["seconds"])
