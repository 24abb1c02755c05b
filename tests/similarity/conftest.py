"""The corpus repositories carry their own tests, as published repositories do: they are copy-detection
data, never the kit's tests (and import their own modules by bare names), so pytest leaves them out."""

collect_ignore_glob = ["corpus/*", "web_copies/*", "template/*"]
