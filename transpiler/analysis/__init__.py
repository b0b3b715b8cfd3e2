"""Analyses over gast trees: scopes and static (transpile-time) values."""
