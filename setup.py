"""Build script; all metadata is in setup.cfg."""
from setuptools import setup

setup()
