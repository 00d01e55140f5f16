"""Hosted events: tournaments of pairs played at the server's own tables (see :mod:`.host`)."""
