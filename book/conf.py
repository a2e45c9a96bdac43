# The warpdrill book: Sphinx with MyST Markdown (Debian: python3-sphinx,
# python3-myst-parser). Build: sphinx-build -W -b html book book/_build/html
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import figures  # noqa: E402

project = "warpdrill"
author = "the warpdrill authors"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "README.md"]
html_theme = "alabaster"
html_theme_options = {"nosidebar": False}
myst_heading_anchors = 3
suppress_warnings = []

# The figures are drawn from the rules they illustrate on every build.
figures.write_all(Path(__file__).parent / "_generated")
