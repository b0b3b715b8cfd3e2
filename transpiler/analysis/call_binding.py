"""A call with keyword arguments as the positional call Python binds it to, so that the
analyses typing calls by their arguments' order (CalleeTypes) type it too."""
import gast

# Packages whose Python functions are typed by their own rules, never as user functions.
_LIBRARIES = frozenset({"numpy", "math", "builtins", "numba", "scipy", "transpiler",
                        "backends"})


def positional_call(node, fn):
    """The call ``node`` (gast.Call with keywords) of the plain Python function ``fn`` as
    the positional call Python binds it to (Python reference, "Calls": keywords fill the
    parameters of their names, the skipped ones take their defaults, given here as
    constants when they are numbers), or None: not a plain Python function of a user's
    module (a library's, np.linspace, is typed by its own rules), ``*args``/``**kwargs`` or
    keyword-only parameters, or a call Python would refuse (an unknown or repeated name:
    TypeError, typed where it is converted)."""
    code = getattr(fn, "__code__", None)
    if code is None or (getattr(fn, "__module__", None) or "").split(".")[0] in _LIBRARIES:
        return None
    if any(isinstance(a, gast.Starred) for a in node.args) or code.co_flags & 0x0C or \
            code.co_kwonlyargcount or code.co_posonlyargcount:
        return None     # (0x04 CO_VARARGS, 0x08 CO_VARKEYWORDS)
    params = list(code.co_varnames[:code.co_argcount])
    defaults = dict(zip(reversed(params), reversed(fn.__defaults__ or ())))
    bound = dict(zip(params, node.args))
    for keyword in node.keywords:
        if keyword.arg is None or keyword.arg not in params or keyword.arg in bound:
            return None
        bound[keyword.arg] = keyword.value
    last = max(params.index(p) for p in bound)
    args = []
    for p in params[:last + 1]:
        if p in bound:
            args.append(bound[p])
        elif p in defaults and type(defaults[p]) in (int, float, bool, complex):
            args.append(gast.Constant(value=defaults[p], kind=None))
        else:
            return None
    return gast.Call(func=node.func, args=args, keywords=[])
