"""Fresh names: the one generator of new local and module-level names."""


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
        name, n = base, self._next.get(base, 1)
        while name in self.taken:
            name = f"{base}{n}" if base.endswith("_") else f"{base}_{n}"
            n += 1
        self._next[base] = n
        self.taken.add(name)
        self.created.append(name)
        return name
