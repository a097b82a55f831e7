"""A Griffe extension for the documentation site: the docstrings' Sphinx roles become links to the API reference.

The docstrings name other objects as Sphinx does (``:func:`run_sweep```, ``:class:`~kemps_sim.errors.AgentError```,
``:mod:`.style```), which MkDocs would otherwise print as they are. When the package is loaded, each role is
replaced by an optional cross-reference to the object's full path, resolved in the scope of the docstring's owner
the way Python would resolve the name there; ``~`` shows the last part of the path only, as in Sphinx. The links are
made when the site is built (mkdocs-autorefs): a target the reference renders becomes a link, any other (a private
helper, ``pandas.DataFrame``) stays code, with its full path as a tooltip.

Loaded by mkdocstrings (``extensions: [scripts/docs_crossrefs.py]`` in mkdocs.yml).
"""

from __future__ import annotations

import html
import importlib.util
import re
from typing import Any

import griffe

#: A Sphinx role with its target: ``:func:`name```, ``:class:`~pkg.mod.Name```, ``:mod:`.sibling```.
ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const|type):`(?P<target>[^`]+)`")


def resolve(owner: griffe.Object, target: str) -> str:
    """The full path ``target`` names in the scope of ``owner`` (the object whose docstring names it).

    A full path (``kemps_sim.errors.AgentError``, ``numpy.random.SeedSequence``) stays as it is; a dotted name is
    looked up from its first part (``style.Encoding``, ``Comparison.text``, ``np.random.default_rng``); a name
    starting with a dot is relative to the owner's package (``.style`` in ``kemps_sim.plots``). A name a package
    exports without defining it (loaded on first use) is looked for among its modules. A name that cannot be
    resolved is returned as written.
    """
    target = target.lstrip("!~")
    module = owner if owner.is_module else owner.module
    if target.startswith("."):
        package = module if module.is_init_module else module.parent
        return f"{package.path if package is not None else ''}{target}"
    first, _, rest = target.partition(".")
    if rest and (first == module.package.name or importlib.util.find_spec(first) is not None):
        return target
    scopes = [owner] if owner.is_module or owner.is_class else []
    scopes += [owner.parent] if owner.parent is not None else []
    for scope in scopes:
        try:
            found = scope.resolve(first)
        except (griffe.NameResolutionError, AttributeError, KeyError):
            continue
        return f"{found}.{rest}" if rest else found
    package = module if module.is_init_module else module.parent
    defined = [sub.members[first] for sub in (package.modules.values() if package is not None else ())
               if first in sub.members and not sub.members[first].is_alias]
    if len(defined) == 1:
        return f"{defined[0].path}.{rest}" if rest else defined[0].path
    return target


def crossref(owner: griffe.Object, match: re.Match[str]) -> str:
    """One role as an optional cross-reference: a link when its target is documented, code otherwise."""
    written = match["target"]
    path = resolve(owner, written)
    shown = written.lstrip("!~").lstrip(".")
    if written.lstrip("!").startswith("~"):
        shown = shown.rsplit(".", 1)[-1]
    return f'<autoref identifier="{html.escape(path)}" optional><code>{html.escape(shown)}</code></autoref>'


def link_roles(obj: griffe.Object, seen: set[int]) -> None:
    """Rewrite the roles in the docstrings of ``obj`` and of everything it holds (each object once)."""
    if obj.is_alias or id(obj) in seen:
        return
    seen.add(id(obj))
    if obj.docstring is not None and ":" in obj.docstring.value:
        obj.docstring.value = ROLE.sub(lambda m: crossref(obj, m), obj.docstring.value)
    for member in obj.members.values():
        if not member.is_alias:
            link_roles(member, seen)


class SphinxRoles(griffe.Extension):
    """Turn every Sphinx role of a loaded package's docstrings into a cross-reference (see the module)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the roles once the whole package is loaded, when every name can be resolved."""
        link_roles(pkg, set())
