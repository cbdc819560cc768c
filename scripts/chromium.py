"""Debian's Chromium, launched the one way this project's scripts and browser tests use it.

Playwright never downloads a browser here: it drives /usr/bin/chromium (apt-get install
chromium). As root, in a sandbox whose only network is the package registries: no sandbox,
no GPU, and none of Chromium's own background connections.
"""

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright, executable: str = CHROMIUM, **options):
    """A headless Chromium browser for ``playwright`` (the sync API's object); ``options`` go
    to Playwright's launch (``env``, say: scripts/deploy_check.py gives it its own HOME)."""
    return playwright.chromium.launch(executable_path=executable, args=ARGS, **options)
