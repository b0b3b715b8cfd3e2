"""Fresh names: the one module that makes new local and module-level names.

Every generated name goes through :func:`fresh` (flags, form functions, runtime inputs, module
symbols) or, for the extra webs of a variable that passes.split_webs splits, :func:`web_name`.
The rules are fixed: generated code, and so the cache's content hashes, depend on them.
"""


def fresh(base, taken, separator=None, start=1):
    """The first of ``base``, ``base_1``, ``base_2``, ... that is not in ``taken``.

    ``separator`` joins the base and the number: by default ``""`` after a base that ends with
    ``_`` (``continue_1``) and ``"_"`` otherwise. ``start``: the first number tried.
    ``taken`` is not changed.
    """
    return _fresh(base, taken, separator, start)[0]


def _fresh(base, taken, separator, start):
    """(the fresh name, the next number to try)."""
    if separator is None:
        separator = "" if base.endswith("_") else "_"
    name, n = base, start
    while name in taken:
        name = f"{base}{separator}{n}"
        n += 1
    return name, n


def web_name(name, k, taken):
    """The name of web ``k`` (2, 3, ...) of variable ``name``: ``name__k``, with ``_``
    appended until it is not in ``taken``. ``taken`` is not changed."""
    fresh_name = f"{name}__{k}"
    while fresh_name in taken:
        fresh_name += "_"
    return fresh_name


class Namer:
    """Fresh local names that collide with nothing the function already uses.

    Attributes:
        taken (set[str]): every name in use; new names are added.
        created (list[str]): the names made here (flags, form functions), in order.
    """

    def __init__(self, taken):
        self.taken = set(taken)
        self.created = []
        self._next = {}             # base -> next suffix to try (keeps this linear)

    def new(self, base):
        name, self._next[base] = _fresh(base, self.taken, None, self._next.get(base, 1))
        self.taken.add(name)
        self.created.append(name)
        return name
