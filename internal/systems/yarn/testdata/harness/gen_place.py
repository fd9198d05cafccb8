#!/usr/bin/env python3
"""Generates Capacity Scheduler placement cases for the harness's YarnPlace341: random queue trees (names that
repeat across branches, so short names are ambiguous), legacy and flexible auto creation with template ACLs, queue
states, yarn.acl.enable, legacy queue-mappings (u:, g:, %user, %primary_group, %secondary_group, parents, leaf names,
malformed entries), the override flag, and JSON mapping rules; questions with and without a queue."""
import json, random, sys
from xml.sax.saxutils import escape

N = int(sys.argv[1]); R = random.Random(int(sys.argv[2])); VALID = len(sys.argv) > 3
NAMES = ["a", "b", "dev", "prod", "default", "etl", "alice", "bob", "eng", "ops", "users", "x"]
USERS = ["alice", "bob", "carol", "dave", "e.f", "eng"]
GROUPS = ["dev", "eng", "ops", "prod", "users", "a.b", "alice"]

def xml(props):
    out = ['<?xml version="1.0"?>', "<configuration>"]
    for k, v in props:
        out.append("  <property><name>%s</name><value>%s</value></property>" % (escape(k), escape(v)))
    out.append("</configuration>")
    return "\n".join(out) + "\n"

def acl():
    return R.choice(["*", " ", "alice", "alice,bob dev", " eng", "bob ops,prod", "carol", "dave users", "nobody"])

def tree():
    props, queues = [], []
    def build(path, depth):
        n = R.choice([1, 2, 2, 3]) if depth < 3 else 0
        if depth > 0 and R.random() < 0.45: n = 0
        kids = R.sample(NAMES, n) if n else []
        if path == "root" and not kids: kids = R.sample(NAMES, 2)
        if path == "root" and R.random() < 0.6 and "default" not in kids: kids[-1] = "default"
        queues.append((path, bool(kids)))
        if kids:
            props.append(("yarn.scheduler.capacity.%s.queues" % path, ",".join(kids)))
            caps = split(len(kids))
            for k, c in zip(kids, caps):
                props.append(("yarn.scheduler.capacity.%s.%s.capacity" % (path, k), str(c)))
                build(path + "." + k, depth + 1)
    def split(n):
        if n == 1: return [100]
        if n == 2: return [50, 50]
        return [40, 30, 30]
    build("root", 0)
    return props, queues

def case(i):
    props, queues = tree()
    leaves = [q for q, p in queues if not p]
    parents = [q for q, p in queues if p]
    if R.random() < 0.6:
        props.append(("yarn.scheduler.capacity.root.acl_submit_applications", acl()))
        props.append(("yarn.scheduler.capacity.root.acl_administer_queue", acl()))
    for q, _ in queues:
        if R.random() < 0.3: props.append(("yarn.scheduler.capacity.%s.acl_submit_applications" % q, acl()))
        if R.random() < 0.15: props.append(("yarn.scheduler.capacity.%s.acl_administer_queue" % q, acl()))
        if q != "root" and R.random() < 0.04: props.append(("yarn.scheduler.capacity.%s.state" % q, "STOPPED"))
    for q in leaves:
        if R.random() < 0.15:
            props.append(("yarn.scheduler.capacity.%s.auto-create-child-queue.enabled" % q, "true"))
            if R.random() < 0.6: props.append(("yarn.scheduler.capacity.%s.leaf-queue-template.acl_submit_applications" % q, acl()))
        elif R.random() < 0.1:
            props.append(("yarn.scheduler.capacity.%s.auto-queue-creation-v2.enabled" % q, "true"))
    for q in parents:
        if R.random() < 0.2:
            props.append(("yarn.scheduler.capacity.%s.auto-queue-creation-v2.enabled" % q, "true"))
            for kind in ["template", "leaf-template", "parent-template"]:
                if R.random() < 0.3: props.append(("yarn.scheduler.capacity.%s.auto-queue-creation-v2.%s.acl_submit_applications" % (q, kind), acl()))
            if R.random() < 0.2: props.append(("yarn.scheduler.capacity.%s.auto-queue-creation-v2.maximum-queue-depth" % q, str(R.choice([1, 2, 3]))))
    if R.random() < 0.1:
        w = R.choice(parents)
        props.append(("yarn.scheduler.capacity.%s.*.auto-queue-creation-v2.template.acl_submit_applications" % w.rsplit(".", 1)[0] if "." in w else "root.*.auto-queue-creation-v2.template.acl_submit_applications", acl()))
    names = [q.split(".")[-1] for q, _ in queues] + ["nosuch", "root.nosuch", "root"]
    paths = [q for q, _ in queues]
    def target():
        if VALID and R.random() < 0.7:
            return R.choice(leaves + [l.split(".")[-1] for l in leaves] + [p + ".%user" for p in paths] + [p + ".%primary_group" for p in paths])
        t = R.random()
        if t < 0.25: return R.choice(names)
        if t < 0.55: return R.choice(paths)
        if t < 0.75: return R.choice(["%user", "%primary_group", "%secondary_group", R.choice(paths) + ".%user", R.choice(paths) + ".%primary_group", "%primary_group.%user", "%secondary_group.%user", R.choice(paths) + ".%secondary_group"])
        if t < 0.9: return R.choice(paths) + "." + R.choice(["new", "%user", "alice"])
        return R.choice(["", " ", "root..a", ".a", "a.", R.choice(paths) + ".x.y"])
    if R.random() < 0.8:
        ms = []
        for _ in range(R.choice([1, 1, 2, 3, 4])):
            k = R.random()
            if k < 0.45: ms.append("u:%s:%s" % (R.choice(USERS + ["%user", "%user"]), target()))
            elif k < 0.85: ms.append("g:%s:%s" % (R.choice(GROUPS), target()))
            elif k < 0.9: ms.append(R.choice(["x:alice:a", "u:alice", "u::a", "u:alice:", "alice:a", "u:alice:a:b"]))
            else: ms.append("u: %s : %s " % (R.choice(USERS), target()))
        sep = R.choice([",", ", ", ",\n  "])
        props.append(("yarn.scheduler.capacity.queue-mappings", sep.join(ms)))
    if R.random() < 0.35: props.append(("yarn.scheduler.capacity.queue-mappings-override.enable", R.choice(["true", "true", "false", "TRUE"])))
    if R.random() < 0.2:
        rules = []
        for _ in range(R.choice([1, 2, 3])):
            r = {"type": R.choice(["user", "user", "group", "application"]), "matches": R.choice(USERS + GROUPS + ["*"]),
                 "policy": R.choice(["specified", "user", "primaryGroup", "secondaryGroup", "primaryGroupUser", "secondaryGroupUser", "defaultQueue", "reject", "custom", "setDefaultQueue"])}
            if R.random() < 0.5: r["parentQueue"] = R.choice(paths)
            if r["policy"] == "custom": r["customPlacement"] = target()
            if r["policy"] == "setDefaultQueue": r["value"] = R.choice(paths)
            if R.random() < 0.6: r["fallbackResult"] = R.choice(["skip", "reject", "placeDefault"])
            if R.random() < 0.4: r["create"] = R.choice([True, False])
            rules.append(r)
        props.append(("yarn.scheduler.capacity.mapping-rule-format", "json"))
        props.append(("yarn.scheduler.capacity.mapping-rule-json", json.dumps({"rules": rules})))
    R.shuffle(props)
    files = {"capacity-scheduler.xml": xml(props)}
    if R.random() < 0.8:
        files["yarn-site.xml"] = xml([("yarn.acl.enable", R.choice(["true", "true", "false"]))])
    qs = []
    for _ in range(12):
        u = R.choice(USERS)
        g = R.sample(GROUPS, R.choice([0, 1, 1, 2, 3]))
        q = None if R.random() < 0.45 else R.choice(names + paths + ["default", "root.default", "root.nosuch.x"])
        qs.append({"user": u, "groups": g, "queue": q})
    return {"id": "p%d" % i, "files": files, "questions": qs}

for i in range(N):
    print(json.dumps(case(i)))
