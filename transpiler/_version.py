"""graphjit's version: a leaf module, so the backends can name it without importing the package
(whose ``__init__`` imports the API, which imports the backends)."""
__version__ = "0.1.0"
