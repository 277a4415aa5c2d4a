"""A mechanics plugin that fails to import (tests/test_plugin_faults.py): its load failure is reported as its own."""

raise ImportError("No module named 'numpyy'")
