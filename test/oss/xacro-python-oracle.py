"""
The oracle for test/oss/xacro-python-str.test.ts: Python itself evaluates each expression and
prints str() of the result, as real xacro writes it (xacro evaluates ${...} with Python's eval and
writes str(result); a text mixing ${...} and plain text joins str() of each part).

Input (stdin, JSON): {"props": [[name, text], ...], "params": [[name, text], ...], "cases": [text, ...]}
  props: xacro properties in order: the text through _eval_literal, then (if still a text) its
         ${...} evaluated and _eval_literal again, as xacro's Table evaluates a lazy property;
  params: macro parameters: the text's ${...} evaluated, then _eval_literal (no second pass);
  cases: attribute texts holding ${...}.
Output (stdout, JSON): one entry per case: {"str": ...} or {"error": exception class name}.

_eval_literal is written here from xacro's rule (xacro/__init__.py, Table._eval_literal): a text in
single quotes is that text; a text holding "_" stays a text; else int(text), then float(text), then
true/True/false/False; else the text. Nothing here is imported from the project.
"""
import json
import math
import re
import sys

EXPR = re.compile(r"\$\{([^}]*)\}")


def eval_literal(value):
    if not isinstance(value, str):
        return value
    if len(value) >= 2 and value[0] == "'" and value[-1] == "'":
        return value[1:-1]
    if "_" in value:
        return value
    for f in (int, float):
        try:
            return f(value)
        except ValueError:
            pass
    if value in ("true", "True"):
        return True
    if value in ("false", "False"):
        return False
    return value


def eval_text(text, env):
    parts = []
    last = 0
    for m in EXPR.finditer(text):
        if m.start() > last:
            parts.append(text[last:m.start()])
        parts.append(eval(m.group(1), env))
        last = m.end()
    if last < len(text):
        parts.append(text[last:])
    if len(parts) == 1:
        return parts[0]
    return "".join(str(p) for p in parts)


def main():
    req = json.load(sys.stdin)
    env = {k: v for k, v in math.__dict__.items() if not k.startswith("_")}
    for name, text in req.get("props", []):
        v = eval_literal(text)
        if isinstance(v, str):
            v = eval_literal(eval_text(v, env))
        env[name] = v
    for name, text in req.get("params", []):
        env[name] = eval_literal(eval_text(text, env))
    out = []
    for text in req["cases"]:
        try:
            out.append({"str": str(eval_text(text, env))})
        except Exception as e:  # the class name is what the test compares
            out.append({"error": type(e).__name__})
    json.dump(out, sys.stdout)


main()
