"""The club night: several tables at once, players drawn and rotated between
rounds, one ranking live on the big screen.

``draw`` (pure: table sizes and the draw), ``ranking`` (the read model), ``writes`` (every
change, the write protocol), ``forms``, ``views``, ``urls``; its files (CSV, night.json, the
backup's ``"nights"``) are ``files/night_files.py``.
"""
