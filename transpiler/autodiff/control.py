"""Control flow on runtime values inside a differentiated function (filled in below)."""
from ..errors import UnsupportedConstruct


def branch(nz, stmt, test, env, origin):
    raise UnsupportedConstruct("an if on a runtime value is not differentiated yet", origin)


def loop_for(nz, stmt, iterable, env, origin):
    raise UnsupportedConstruct("a loop is not differentiated yet", origin)


def loop_while(nz, stmt, env, origin):
    raise UnsupportedConstruct("a loop is not differentiated yet", origin)
