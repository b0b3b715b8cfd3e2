"""What every lowering pass receives besides the function (:class:`Context`)."""


class Context:
    """What a pass needs besides the function: the namer, the function's local variables, and
    ``ir(form)``, which returns a new Name node referring to a functional form (``cond``...)."""

    def __init__(self, namer, local_vars, ir):
        self.namer = namer
        self.local_vars = set(local_vars)
        self.ir = ir

    def new_var(self, base):
        name = self.namer.new(base)
        self.local_vars.add(name)
        return name
