"""One line of Swift per declaration that compiles only if the declaration is here with Apple's shape."""

import re
from dataclasses import dataclass

from .interface import generic_names, split_top

RAW_TYPES = {"Int", "UInt", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "String",
             "Character", "Double", "Float"}

def top_level_split(text, separator):
    """Splits text at the first `separator` (a word) outside brackets: (before, after) or (text, '')."""
    depth = 0
    for i in range(len(text)):
        depth += {"(": 1, "<": 1, "[": 1, ")": -1, ">": -1 if text[i - 1:i] != "-" else 0, "]": -1}.get(text[i], 0)
        if depth == 0 and text.startswith(separator, i) and (i == 0 or not text[i - 1].isalnum()):
            end = i + len(separator)
            if end >= len(text) or not (text[end].isalnum() or text[end] == "_"):
                return text[:i].strip(), text[end:].strip()
    return text.strip(), ""


def closing(text, start):
    """Index of the bracket closing the one at `start`."""
    pairs = {"(": ")", "<": ">", "[": "]"}
    opener, depth = text[start], 0
    for i in range(start, len(text)):
        if text[i] == opener:
            depth += 1
        elif text[i] == pairs[opener] and not (opener == "<" and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced {opener} in {text}")


@dataclass
class Signature:
    name: str
    generics: str  # "<...>" or ""
    params: list  # (label or "_", type)
    effects: str  # "async throws" or ""
    result: str
    where: str


def signature(text, keyword):
    """Name, generic clause, parameters, effects, result and where clause of a func/init/subscript."""
    text = re.sub(r"\{[^{}]*\}\s*$", "", text).strip()  # a subscript's accessors
    rest = text[text.index(keyword) + len(keyword):].strip()
    if keyword == "func":
        m = re.match(r"(`?[A-Za-z_]\w*`?|[^\s(\w]+)\s*", rest)
        name, rest = m.group(1), rest[m.end():]
    else:
        name = keyword + ("?" if rest.startswith("?") else "")
        rest = rest.lstrip("?!").strip()
    generics = ""
    if rest.startswith("<"):
        end = closing(rest, 0)
        generics, rest = rest[:end + 1], rest[end + 1:].strip()
    end = closing(rest, 0)
    params = [parameter(p) for p in split_top(rest[1:end])]
    rest = rest[end + 1:].strip()
    rest, where = top_level_split(rest, "where")
    effects, result = top_level_split(rest, "->") if "->" in rest else (rest, "")
    if result.endswith("}"):  # a subscript's accessors
        result = result[:result.index("{")].strip()
    return Signature(name, generics, params, " ".join(effects.split()), result, where)


def parameter(text):
    text = re.sub(r"^(@[\w.]+\s+)+", "", text.strip())  # a result builder on the parameter
    head, _, kind = text.partition(":")
    kind = kind.split("=")[0].strip() if "=" in kind and not "->" in kind.split("=")[0][-1:] else kind.strip()
    kind = strip_default(kind)
    names = head.split()
    return names[0], kind.replace("__owned ", "")


def strip_default(kind):
    """The type of a parameter with its default value removed (`= nil`, `= .init()`)."""
    depth = 0
    for i, c in enumerate(kind):
        depth += {"(": 1, "<": 1, "[": 1, ")": -1, "]": -1}.get(c, 0)
        if c == ">" and kind[i - 1] != "-":
            depth -= 1
        if c == "=" and depth == 0 and kind[i - 1] != "=" and kind[i + 1:i + 2] != "=":
            return kind[:i].strip()
    return kind.strip()


def opaque_constraint(kind):
    """`some Sendable & AsyncSequence<X, E>` -> `Sendable & AsyncSequence<X, E>`; else None."""
    return kind[5:].strip() if kind.startswith("some ") else None


def check(decl, subject="Subject"):
    """One line of Swift (a function that is never called) that compiles only if `decl` is here
    with Apple's shape; None for declarations that are not checked (their reason is returned)."""
    owner = decl.owner
    protocol = decl.in_protocol
    # Inside a protocol, requirements are checked on a generic type that adopts it.
    target = subject if protocol else owner
    head = f"<{subject}: {owner}>(_: {subject}.Type)" if protocol else "()"

    def fix(text):
        text = re.sub(r"\bSelf\b", target, text)
        return text

    if decl.kind == "type":
        keyword, _, rest = decl.text.partition(" ")
        name = owner + "." + rest.split("<")[0] if owner else rest.split("<")[0]
        if keyword == "protocol":
            return f"() {{ let _: (any {name}).Type? = nil }}"
        if "<" in rest:
            name = owner + "." + rest if owner else rest
        return f"() {{ _ = {name}.self }}"
    if decl.kind == "conformance":
        constraint = decl.text
        if decl.container_kinds[-1:] == ["enum"] and constraint in RAW_TYPES:
            return f"() {{ let _: {owner}.RawValue.Type = {constraint}.self }}"
        if protocol:
            return f"<{subject}: {owner}>(_: {subject}.Type) {{ func need<Z: {constraint}>(_: Z.Type) {{}}; need({subject}.self) }}"
        return f"() {{ func need<Z: {constraint}>(_: Z.Type) {{}}; need({owner}.self) }}"
    if decl.kind == "case":
        body = decl.text[5:].strip()
        for case in split_top(body):
            name, _, payload = case.partition("(")
            name = name.strip()
            if not payload:
                return f"() {{ let _: {owner} = {owner}.{name} }}"
            params = [parameter(p) if ":" in p else ("_", p.strip()) for p in split_top(payload.rstrip(")"))]
            labels = "".join(f"{label}:" for label, _ in params) if any(l != "_" for l, _ in params) else ""
            reference = f"{owner}.{name}" + (f"({labels})" if labels else "")
            declared = f"({', '.join(t for _, t in params)}) -> {owner}"
            return f"() {{ typealias Declared = {declared}; same(type(of: {reference}), Declared.self) }}"
    if decl.kind == "typealias":
        name, _, value = decl.text[len("typealias"):].partition("=")
        name, value = name.strip(), value.strip()
        if value.startswith("@_opaqueReturnTypeOf"):  # the interface names no constraint: the name only
            return f"{head} {{ _ = {target}.{name}.self }}"
        constraint = opaque_constraint(value)
        if constraint:
            return f"{head} {{ func need<Z: {constraint}>(_: Z.Type) {{}}; need({target}.{name}.self) }}"
        return f"{head} {{ same({target}.{name}.self, {fix(value)}.self) }}"
    if decl.kind == "associatedtype":
        body = decl.text[len("associatedtype"):].strip()
        body, _ = top_level_split(body, "where")
        name, _, inherits = body.partition(":")
        need = " & ".join(split_top(inherits)) or "Any"
        return f"{head} {{ func need<Z: {need}>(_: Z.Type) {{}}; need({subject}.{name.strip()}.self) }}"
    if decl.kind == "var":
        return property_check(decl, target, head, fix)
    if decl.kind in ("init", "func", "subscript"):
        return function_check(decl, target, head, fix, protocol, subject)
    return None


def property_check(decl, target, head, fix):
    text = decl.text
    accessors = ""
    if "{" in text:
        text, accessors = text[:text.index("{")].strip(), text[text.index("{") + 1:text.rindex("}")].strip()
    keyword, _, rest = text.partition(" ")
    name, _, kind = rest.partition(":")
    name, kind = name.strip().strip("`"), fix(strip_default(kind.strip()))
    effects = ("try " if "throws" in accessors else "") + ("await " if "async" in accessors else "")
    settable = "set" in accessors.split() or (keyword == "var" and not accessors)
    constraint = opaque_constraint(kind)
    if constraint:
        read = f"{target}.{name}" if decl.static else f"subject.{name}"
        parameters = head if decl.static or decl.in_protocol else f"(_ subject: {target})"
        if decl.in_protocol and not decl.static:
            parameters = head.replace(")", f", _ subject: {target})", 1) if False else head[:-1] + f", _ subject: {target})"
        return f"{parameters} async throws {{ func need(_: some {constraint}) {{}}; need({effects}{read}) }}"
    if decl.static:
        assign = f"; {target}.{name} = {target}.{name}" if settable else ""
        return f"{head} async throws {{ let value = {effects}{target}.{name}; same(type(of: value), ({kind}).self){assign} }}"
    if decl.container_kinds[-1:] == ["actor"]:
        effects = "await " + effects.replace("await ", "")
    if effects:
        parameters = head[:-1] + f", _ subject: {target})" if decl.in_protocol else f"(_ subject: {target})"
        return f"{parameters} async throws {{ let value = {effects}subject.{name}; same(type(of: value), ({kind}).self) }}"
    is_class = not decl.in_protocol and decl.container_kinds[-1:] in (["class"], ["actor"]) if decl.container_kinds else False
    path = "KeyPath"
    if settable:
        path = "ReferenceWritableKeyPath" if is_class else "WritableKeyPath"
    return f"{head} {{ let _: {path}<{target}, {kind}> = \\{target}.{name} }}"


def function_check(decl, target, head, fix, protocol, subject):
    keyword = decl.kind
    sig = signature(decl.text, keyword)
    params = [(label, fix(kind)) for label, kind in sig.params]
    result = fix(sig.result) or "Void"
    if keyword == "init":
        result = target + ("?" if sig.name == "init?" else "")
    generics = sig.generics[1:-1] if sig.generics else ""
    # Each generic parameter is a parameter of the wrapper too, so that the wrapper uses it.
    metatypes = [f"_: {name}.Type" for name in generic_names(sig.generics)]
    where = fix(sig.where)
    if protocol:
        generics = ", ".join(g for g in [f"{subject}: {decl.owner}", generics] if g)
        metatypes.insert(0, f"_: {subject}.Type")
    wrapper = (f"<{generics}>" if generics else "") + f"({', '.join(metatypes)})"
    if where:
        wrapper += f" where {where}"
    isolated = decl.container_kinds[-1:] == ["actor"] and not decl.static and keyword == "func"
    if keyword == "subscript" or decl.mutating or result.startswith("some ") or isolated:
        # Not referenceable: called with values of the parameters' types instead.
        values = ", ".join(f"_ p{i}: {kind}" for i, (_, kind) in enumerate(params))
        subject_parameter = "" if decl.static else (f"_ subject: inout {target}" if decl.mutating else f"_ subject: {target}")
        parameters = ", ".join(p for p in metatypes + [subject_parameter, values] if p)
        call_arguments = ", ".join(
            (f"{label}: " if label != "_" else "") + ("&" if kind.startswith("inout ") else "") + f"p{i}"
            for i, (label, kind) in enumerate(params))
        receiver = target if decl.static else "subject"
        effects = ("try " if "throws" in sig.effects else "") + ("await " if "async" in sig.effects or isolated else "")
        call = f"{receiver}[{call_arguments}]" if keyword == "subscript" else f"{receiver}.{sig.name}({call_arguments})"
        constraint = opaque_constraint(result)
        use = (f"func need(_: some {constraint}) {{}}; need({effects}{call})" if constraint
               else f"let value = {effects}{call}; typealias Declared = {result}; same(type(of: value), Declared.self)")
        where_clause = f" where {where}" if where else ""
        return f"<{generics}>({parameters}) async throws{where_clause} {{ {use} }}".replace("<>", "")
    labels = "".join(f"{label}:" for label, _ in params)
    labelled = f"({labels})" if params else ""  # T.f(a:b:), but T.f for a function without parameters
    effects = sig.effects.replace("rethrows", "throws")  # a function type says throws
    function_type = f"({', '.join(kind for _, kind in params)}) {effects} -> {result}".replace(")  ->", ") ->")
    if keyword == "init":
        reference = f"{target}.init{labelled}"
    elif not re.match(r"`?[A-Za-z_]", sig.name):
        return f"{wrapper} {{ let _: {function_type} = ({sig.name}) }}"
    else:
        reference = f"{target}.{sig.name}{labelled}"
    if not decl.static and keyword == "func":
        function_type = f"({target}) -> {function_type}"
    # The reference's own type must be the declared one: a typed `let` would accept a function
    # that converts to it (one taking `T?` where Apple's takes `T`, say).
    # Through a type alias: `sending` and `@escaping` are written in type position only.
    return f"{wrapper} {{ typealias Declared = {function_type}; same(type(of: {reference}), Declared.self) }}"


def generate(decls, imports):
    """The Swift file: one uncalled function per declaration, on one line, after a comment that
    names it; returns (source, {line: declaration index})."""
    lines = ["// Generated by scripts/api-surface: every public declaration of Apple's interface as a check.",
             "// Do not edit; it is made anew on each run."]
    lines += [f"import {m}" for m in imports]
    lines += ["", "/// Compiles only when both are the same type (metatypes do not convert).",
              "func same<T>(_: T.Type, _: T.Type) {}", ""]
    where = {}
    for index, decl in enumerate(decls):
        body = check(decl)
        if body is None:
            continue
        lines.append(f"// {decl.sdk}:{decl.line} {decl.key}")
        where[len(lines) + 1] = index
        lines.append(f"func _check{index}{body}")
    return "\n".join(lines) + "\n", where
