# The warpdrill book: Sphinx with MyST Markdown (Debian: python3-sphinx,
# python3-myst-parser), in English and, through gettext catalogues under
# locales/, in Simplified Chinese. Build both and check their links:
# scripts/book.sh (or sphinx-build -W -b html book book/_build/html, adding
# -D language=zh_CN for Chinese). book/README.md says how to update the catalogues.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import figures  # noqa: E402

project = "warpdrill"
author = "the warpdrill authors"
extensions = ["myst_parser", "bookext"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "README.md", "mistakes"]
html_theme = "alabaster"
html_theme_options = {"nosidebar": False}
html_static_path = ["_static"]
templates_path = ["_templates"]
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "languages.html", "searchbox.html"]}
html_css_files = ["book.css"]
myst_heading_anchors = 3
suppress_warnings = []

# Translations: locales/zh_CN/LC_MESSAGES/<document>.po, one catalogue per
# chapter, without source locations (they would change with every edit).
language = "en"
locale_dirs = ["locales/"]
gettext_compact = False
gettext_location = False
gettext_uuid = False

# The figures are drawn from the rules they illustrate on every build.
figures.write_all(Path(__file__).parent / "_generated")
