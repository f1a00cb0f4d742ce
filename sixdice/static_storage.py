"""The static files storage of the served app (``make run``): hashed names, gzip copies, and ES modules.

The pages' scripts are ES modules that name each other (``import {el} from "./dom.js";``).  With
hashed names, a module must name the hashed file its page loads, or the browser would load (and run)
a second copy of the module under its plain name; Django rewrites those imports when
``support_js_module_import_aggregation`` is on.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed manifest storage that also rewrites the imports of JavaScript modules."""

    support_js_module_import_aggregation = True
