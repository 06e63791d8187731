"""A state copier written for one state model: plain Python, built from the model's pydantic-core schema.

`phases.copy_state` copies every state before an action changes it, so the copy is a large share of an
engine's time (issue 12). pydantic-core's revalidating copy (`phases._copier`) validates every field of
every model again; a state is already valid, so this copier only rebuilds what can change in place:
each model gets a new instance with a copy of its `__dict__`, each list and dict is copied, and scalars
are shared (they are immutable). For the states of the shipped games this is about 1.5-2x faster.

The result is exactly what the revalidating copy gives: the same field values of the same types, the same
`__pydantic_fields_set__` object (pydantic-core also keeps it), no extra and no private values. Where the
revalidating copy would change something (a model of another class, a bool or an int stored in an int or
float field, a tuple in a list field), the compiled copier gives up and `copy_state` copies that state the
revalidating way. A schema with anything else (validators, unions of models, private attributes, extra
fields, custom `__init__`) is not compiled at all.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

# immutable values a copy may share (checked types: a value of another type makes the copier give up)
SHARED = {"str", "literal", "none", "bytes"}
CHECKED = {"int": "int", "float": "float", "bool": "bool"}


class Retype(Exception):
    """A value the revalidating copy would convert: copy this state that way instead."""


def _give_up() -> Any:
    raise Retype


def _slot_setter(name: str) -> Callable[[Any, Any], None]:
    """What sets BaseModel's slot `name` on an instance: the slot's own setter (faster than `object.__setattr__`)."""
    slot = BaseModel.__dict__.get(name)
    if slot is not None and hasattr(slot, "__set__"):
        setter: Callable[[Any, Any], None] = slot.__set__
        return setter
    return lambda obj, value: object.__setattr__(obj, name, value)


class Unsupported(Exception):
    """Something in the schema this copier does not handle."""


def compile_copier(cls: type[BaseModel], shared: tuple[str, ...] = ()) -> Callable[[Any], Any] | None:
    """A function copying instances of `cls` (raising `Retype` where it gives up), or None. The fields of `cls`
    named in `shared` are passed through as they are (`phases.apply_copy` gives them lists of their own)."""
    try:
        return _Builder(cls, shared).build()
    except Unsupported:
        return None


class _Builder:
    def __init__(self, cls: type[BaseModel], shared: tuple[str, ...] = ()) -> None:
        self.cls = cls
        self.shared = shared
        self.defs: dict[str, Any] = {}
        self.names: dict[type, str] = {}
        self.src: list[str] = []
        self.ns: dict[str, Any] = {"_set": object.__setattr__, "_new": object.__new__, "give_up": _give_up,
                                   "_fields_set": _slot_setter("__pydantic_fields_set__"),
                                   "_extra": _slot_setter("__pydantic_extra__"),
                                   "_private": _slot_setter("__pydantic_private__")}
        self._collect(cls.__pydantic_core_schema__)

    def build(self) -> Callable[[Any], Any]:
        top = self._resolve(dict(self.cls.__pydantic_core_schema__))
        if top.get("type") != "model":
            raise Unsupported(str(top.get("type")))
        name = self._model(top)
        exec("\n\n".join(self.src), self.ns)  # noqa: S102 - code generated above from the schema, no outside text
        fn: Callable[[Any], Any] = self.ns[name]
        return fn

    def _collect(self, node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "definitions":
                for d in node["definitions"]:
                    self.defs[d["ref"]] = d
            for v in node.values():
                self._collect(v)
        elif isinstance(node, list):
            for v in node:
                self._collect(v)

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while True:
            t = node.get("type")
            if t == "definition-ref":
                node = self.defs[node["schema_ref"]]
            elif t in ("default", "definitions"):
                node = node["schema"]
            else:
                return node

    def _expr(self, node: dict[str, Any], x: str, depth: int) -> str | None:
        """An expression copying the value `x` of schema `node`, or None when it is shared as it is."""
        node = self._resolve(node)
        t = node.get("type")
        if t in SHARED or t in CHECKED:
            return None
        if t == "nullable":
            inner = self._expr(node["schema"], x, depth)
            return None if inner is None else f"(None if {x} is None else {inner})"
        if t == "list":
            items = node.get("items_schema")
            if items is None or self._resolve(items).get("type") == "any":
                raise Unsupported("a list of anything")
            guard = f"{x} if type({x}) is list else give_up()"
            if self._resolve(items).get("type") == "model":  # a loop with the model's copy written in
                return f"{self._model(self._resolve(items))}_list({guard})"
            inner = self._expr(items, f"v{depth}", depth + 1)
            return f"({guard})[:]" if inner is None else f"[{inner} for v{depth} in ({guard})]"
        if t == "dict":
            keys, values = node.get("keys_schema"), node.get("values_schema")
            if keys is None or values is None or self._resolve(keys).get("type") not in SHARED | set(CHECKED):
                raise Unsupported("dict keys or values of anything")
            guard = f"({x} if type({x}) is dict else give_up())"
            if self._resolve(values).get("type") == "model":
                return f"{self._model(self._resolve(values))}_dict({guard})"
            inner = self._expr(values, f"v{depth}", depth + 1)
            if inner is None:
                return f"{guard}.copy()"
            return f"{{k{depth}: {inner} for k{depth}, v{depth} in {guard}.items()}}"
        if t == "model":
            return f"{self._model(node)}({x})"
        raise Unsupported(str(t))

    def _check(self, node: dict[str, Any], x: str) -> str | None:
        """A condition that holds when scalar `x` has the exact type the revalidating copy would give it."""
        node = self._resolve(node)
        t = node.get("type")
        if t == "nullable":
            inner = self._check(node["schema"], x)
            return None if inner is None else f"({x} is None or {inner})"
        if t in CHECKED:
            return f"type({x}) is {CHECKED[t]}"
        return None

    def _model(self, node: dict[str, Any]) -> str:
        mcls = node["cls"]
        if mcls in self.names:
            return self.names[mcls]
        name = self.names[mcls] = f"copy_{mcls.__name__}_{len(self.names)}"
        if (mcls.__private_attributes__ or mcls.model_config.get("extra") == "allow" or node.get("custom_init")
                or node.get("root_model") or node.get("post_init")):
            raise Unsupported(f"{mcls.__name__}: private attributes, extra fields, custom init or root model")
        fields = self._resolve(node["schema"])
        if fields.get("type") != "model-fields":
            raise Unsupported(str(fields.get("type")))
        self.ns[f"C_{name}"] = mcls
        body = [f"if type(o) is not C_{name}:", "    give_up()", "d = o.__dict__.copy()"]
        checks = []
        for fname, f in fields["fields"].items():
            x = f"d[{fname!r}]"
            if mcls is self.cls and fname in self.shared:
                continue
            e = self._expr(f["schema"], x, 0)
            if e is not None:
                body.append(f"{x} = {e}")
            c = self._check(f["schema"], x)
            if c is not None:
                checks.append(c)
        if checks:
            body += [f"if not ({' and '.join(checks)}):", "    give_up()"]
        body += [f"new = _new(C_{name})", "_set(new, '__dict__', d)", "_fields_set(new, o.__pydantic_fields_set__)",
                 "_extra(new, None)", "_private(new, None)"]
        # one instance; a list of them; a dict of them (the loops save a call per item)
        self.src.append("\n".join([f"def {name}(o):", *("    " + b for b in body), "    return new"]))
        self.src.append("\n".join([f"def {name}_list(xs):", "    out = []", "    add = out.append", "    for o in xs:",
                                   *("        " + b for b in body), "        add(new)", "    return out"]))
        self.src.append("\n".join([f"def {name}_dict(m):", "    out = {}", "    for k, o in m.items():",
                                   *("        " + b for b in body), "        out[k] = new", "    return out"]))
        return name
