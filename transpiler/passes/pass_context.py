"""What every lowering pass receives besides the function (:class:`Context`)."""


class Context:
    """What a pass needs besides the function: the namer, the function's local variables,
    ``ir(form)``, which returns a new Name node referring to a functional form (``cond``...),
    and ``flags``, the runtime definedness flags of variables that may be unassigned."""

    def __init__(self, namer, local_vars, ir, flags=None):
        self.namer = namer
        self.local_vars = set(local_vars)
        self.ir = ir
        # variable -> its runtime definedness flag (passes/definedness_flags.py)
        self.flags = dict(flags or {})

    def new_var(self, base):
        name = self.namer.new(base)
        self.local_vars.add(name)
        return name
