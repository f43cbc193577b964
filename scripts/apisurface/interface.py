"""Reads a Swift interface file into its public declarations."""

import re
from dataclasses import dataclass, field

TYPE_KEYWORDS = ("class", "struct", "enum", "protocol", "actor", "extension")
MODIFIERS = {
    "public", "open", "final", "static", "class", "convenience", "required", "override", "nonisolated",
    "mutating", "nonmutating", "indirect", "dynamic", "optional", "lazy", "weak", "unowned", "package",
    "distributed", "prefix", "postfix", "infix", "__consuming", "consuming", "borrowing",
}


@dataclass
class Declaration:
    """One public declaration: where it sits, what it is, and its text as Apple writes it."""

    sdk: str
    line: int
    container: list  # enclosing type names, outermost first
    kind: str  # type, conformance, init, func, var, case, typealias, associatedtype, subscript
    text: str  # the declaration, normalised (module selectors and attributes removed)
    static: bool = False
    mutating: bool = False
    container_kinds: list = field(default_factory=list)
    where: str = ""  # the enclosing extension's where clause
    generics: dict = field(default_factory=dict)  # container generic parameters, by container

    @property
    def owner(self):
        return ".".join(self.container)

    @property
    def in_protocol(self):
        return bool(self.container_kinds) and self.container_kinds[-1] == "protocol"

    @property
    def key(self):
        return f"{self.owner} {self.text}".strip() if self.owner else self.text


def strip_comments(text):
    """Removes // and /* */ comments, keeping string literals and line numbers."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def normalise(text):
    """Module selectors (Swift::Int, Speech::X.Speech::Y) and qualified standard names removed."""
    text = re.sub(r"\b[A-Za-z_]\w*::", "", text)
    text = re.sub(r"\b(?:Swift|Foundation|_Concurrency|AVFAudio|AVFoundation|CoreMedia|Speech)\.(?=[A-Z])", "", text)
    return re.sub(r"\s+", " ", text).strip()


def strip_attributes(text):
    """Leading declaration attributes (@available(...), @objc, @discardableResult...) removed."""
    while True:
        m = re.match(r"\s*@[\w.]+", text)
        if not m:
            return text.strip()
        i = m.end()
        if i < len(text) and text[i] == "(":
            depth = 0
            for j in range(i, len(text)):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                if depth == 0:
                    i = j + 1
                    break
        text = text[i:]


def balanced(text):
    return sum({"(": 1, ")": -1, "[": 1, "]": -1, "<": 0}.get(c, 0) for c in text) == 0


def statements(source):
    """Yields (line, text, opens_block) with multi-line declarations joined; '}' as its own item."""
    lines = strip_comments(source).split("\n")
    pending, start = "", 0
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if not pending:
            start = number
        pending = (pending + " " + line).strip()
        if not balanced(pending) or pending.startswith("@") and re.fullmatch(r"(@[\w.]+(\([^)]*\))?\s*)+", pending):
            continue
        yield from split_braces(start, pending)
        pending = ""


def split_braces(line, text):
    """A statement with its braces: accessor blocks ({ get }, { get set }) stay with it."""
    while text:
        accessor = re.match(r"^(.*?)\{\s*((?:get|set|_read|_modify|mutating get|get async|get throws|get async throws)(?:\s+(?:get|set))*)\s*\}(.*)$", text)
        brace = text.find("{")
        close = text.find("}")
        if accessor and (brace < 0 or brace == len(accessor.group(1))):
            yield line, accessor.group(1).strip() + " { " + accessor.group(2) + " }", False
            text = accessor.group(3).strip()
        elif brace >= 0 and (close < 0 or brace < close):
            head = text[:brace].strip()
            rest = text[brace + 1:].strip()
            # An accessor block split over lines: "var x: T {" then "get" then "}".
            if re.search(r"\b(var|subscript)\b", head) and not re.search(r"\b(" + "|".join(TYPE_KEYWORDS) + r")\b", head.split("(")[0]):
                yield line, head, "accessors"
            else:
                yield line, head, True
            text = rest
        elif close >= 0:
            head = text[:close].strip()
            if head:
                yield line, head, False
            yield line, "}", False
            text = text[close + 1:].strip()
        else:
            yield line, text, False
            text = ""


def parse_interface(path, sdk):
    """Every public declaration of a .swiftinterface file (internal and underscored names left out)."""
    return parse_interface_text(open(path, encoding="utf-8").read(), sdk)


def parse_interface_text(source, sdk):
    decls, stack = [], []  # stack items: (name or None, kind, where, generics)
    accessor_owner = None
    for line, text, opens in statements(source):
        if accessor_owner is not None:
            if text == "}":
                decl = accessor_owner
                decl.text += " { " + " ".join(accessor_owner.accessors) + " }"
                del decl.accessors
                decls.append(decl)
                accessor_owner = None
            else:
                accessor_owner.accessors.append(text)
            continue
        if text == "}":
            if stack:
                stack.pop()
            continue
        body = strip_attributes(normalise(text))
        words = body.split()
        if not words or words[0] in ("import", "@_exported", "precedencegroup") or body.startswith("#"):
            if opens is True:
                stack.append((None, "other", "", {}, False))
            continue
        def is_modifier(i):
            if words[i] == "class":  # a modifier only before a member (class func, class var)
                return i + 1 < len(words) and words[i + 1] in ("func", "var", "let", "subscript")
            return words[i] in MODIFIERS or words[i].startswith("@")

        keyword_index = next((i for i in range(len(words)) if not is_modifier(i)), None)
        keyword = re.match(r"[A-Za-z_]*", words[keyword_index]).group(0) if keyword_index is not None else ""
        modifiers = set(words[:keyword_index or 0])
        parent = stack[-1] if stack else (None, "file", "", {}, False)
        visible = bool(modifiers & {"public", "open"}) or parent[1] == "protocol" or (
            parent[1] == "extension" and parent[4])
        container = [s[0] for s in stack if s[0]]
        kinds = [s[1] for s in stack if s[0]]
        where = next((s[2] for s in reversed(stack) if s[2]), "")
        generics = {s[0]: s[3] for s in stack if s[0] and s[3]}
        if keyword in TYPE_KEYWORDS:
            rest = body[body.index(keyword) + len(keyword):].strip()
            m = re.match(r"([\w.]+)\s*(<[^>]*>)?\s*(?::\s*(.*?))?\s*(?:where\s+(.*))?$", rest)
            name, params, inherits, clause = m.group(1), m.group(2) or "", m.group(3) or "", m.group(4) or ""
            public_extension = keyword == "extension" and "public" in modifiers
            if keyword == "extension":
                name += params
                path = [name]
                stack.append((name, "extension", clause, {}, public_extension))
                for conformance in split_top(inherits):
                    decls.append(Declaration(sdk, line, path, "conformance", conformance, where=clause))
                continue
            stack.append((name, keyword, "", generic_names(params), True))
            if not visible or name.startswith("_"):
                stack[-1] = (None, "other", "", {}, False)
                continue
            path = container + [name]
            decls.append(Declaration(sdk, line, container, "type", f"{keyword} {name}{params}", container_kinds=kinds,
                                     where=where, generics=generics))
            for conformance in split_top(inherits):
                if conformance in ("AnyObject",):
                    continue
                decls.append(Declaration(sdk, line, path, "conformance", conformance.replace("@unchecked ", ""),
                                         container_kinds=kinds + [keyword], where=where,
                                         generics={**generics, name: generic_names(params)}))
            continue
        if opens is True:
            stack.append((None, "other", "", {}, False))
        if not visible or keyword in ("deinit", "") or not container and keyword not in ("func", "var", "let", "typealias"):
            continue
        if keyword == "init":
            kind = "init"
        elif keyword in ("func", "var", "let", "case", "typealias", "associatedtype", "subscript"):
            kind = "var" if keyword == "let" else keyword
        else:
            continue
        name_match = re.search(r"\b" + keyword + r"\b\s*`?([^\s(<:`=]*)", body)
        if name_match and name_match.group(1).startswith("_"):
            continue
        decl = Declaration(sdk, line, container, kind, body[body.index(keyword):] if keyword != "let" else "let" + body[body.index(keyword) + 3:],
                           static="static" in modifiers or "class" in words[:keyword_index or 0],
                           mutating="mutating" in modifiers, container_kinds=kinds, where=where, generics=generics)
        if opens == "accessors":
            decl.accessors = []
            accessor_owner = decl
        else:
            decls.append(decl)
    kinds = {d.owner + ("." if d.owner else "") + re.split(r"[<\s]", d.text.split(" ", 1)[1])[0]: d.text.split(" ")[0]
             for d in decls if d.kind == "type"}
    for d in decls:
        resolved = [kinds.get(".".join(d.container[:i + 1]), k) for i, k in enumerate(d.container_kinds)]
        if not d.container_kinds and d.container:
            resolved = [kinds.get(d.owner, "extension")]
        d.container_kinds = resolved
    return decls


def split_top(text):
    """Splits on commas outside brackets."""
    parts, depth, current = [], 0, ""
    for c in text:
        depth += {"(": 1, "<": 1, "[": 1, ")": -1, ">": -1, "]": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current.strip())
    return parts


def generic_names(params):
    return [p.split(":")[0].strip() for p in split_top(params.strip("<>"))] if params else []
