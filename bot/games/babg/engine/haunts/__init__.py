"""Haunt modules: one per haunt whose rules the data cannot say alone, each
a `RuleSet` registered by number (see bot.games.babg.engine.rulesets). Importing this
package registers them all."""
import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
