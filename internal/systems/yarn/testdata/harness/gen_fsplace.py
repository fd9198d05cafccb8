#!/usr/bin/env python3
"""Generates Fair Scheduler placement cases: an allocation file (queue trees with type="parent", reservation,
scheduling policies, ACLs, a queuePlacementPolicy of every rule with create flags, parent rules, default queues,
and the mistakes QueuePlacementPolicy refuses), often a yarn-site.xml (yarn.acl.enable, allow-undeclared-pools,
user-as-default-queue), and 12 applications each. usage: gen_fsplace.py N SEED"""
import json, random, sys

N, SEED = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(SEED)
NAMES = ["a", "b", "etl", "dev", "users", "alice", "bob", "prod", "default", "g1", "shared"]
USERS = ["alice", "bob", "carol", "d.ot", "etl", "users"]
GROUPS = ["etl", "dev", "users", "g1", "a.b", "prod", "alice"]
RULES = ["specified", "user", "primaryGroup", "secondaryGroupExistingQueue", "nestedUserQueue", "default", "reject"]
FLAGS = [None, None, "true", "false", "TRUE", "", "yes"]
ACLS = ["*", " ", "alice", "alice etl", " etl", "bob,carol dev,users", "carol", "  ", "nobody"]

def tree(depth):
    out = []
    for n in rnd.sample(NAMES, rnd.randint(1, 4 if depth == 0 else 3)):
        q = {"name": n, "children": [], "attrs": {}, "els": []}
        if depth < 2 and rnd.random() < 0.45:
            q["children"] = tree(depth + 1)
        if not q["children"] and rnd.random() < 0.2:
            q["attrs"]["type"] = "parent"
        if not q["children"] and rnd.random() < 0.04:
            q["els"].append("<reservation></reservation>")
        if rnd.random() < 0.12:
            pols = ["fair", "drf", "fifo", "DRF", "Fair"] if not q["children"] and "type" not in q["attrs"] or rnd.random() < 0.1 else ["drf", "DRF"]
            q["els"].append("<schedulingPolicy>%s</schedulingPolicy>" % rnd.choice(pols))
        for tag in ["aclSubmitApps", "aclAdministerApps"]:
            if rnd.random() < 0.4:
                q["els"].append("<%s>%s</%s>" % (tag, rnd.choice(ACLS), tag))
        out.append(q)
    return out

def render(qs, ind):
    s = ""
    for q in qs:
        attrs = "".join(' %s="%s"' % kv for kv in q["attrs"].items())
        s += '%s<queue name="%s"%s>\n' % (ind, q["name"], attrs)
        for e in q["els"]:
            s += ind + "  " + e + "\n"
        s += render(q["children"], ind + "  ")
        s += ind + "</queue>\n"
    return s

def paths(qs, pre):
    out = []
    for q in qs:
        p = pre + "." + q["name"]
        out.append(p)
        out += paths(q["children"], p)
    return out

def rule(nested_ok=True):
    name = rnd.choice(RULES + ["user", "specified", "default"])
    if rnd.random() < 0.03:
        name = rnd.choice(["User", "bogus", ""])
    attrs = {}
    if name:
        attrs["name"] = name
    f = rnd.choice(FLAGS)
    if f is not None:
        attrs["create"] = f
    if name == "default" and rnd.random() < 0.6:
        attrs["queue"] = rnd.choice(["shared", "users.shared", "root.default", "a", ".x", "prod.etl", "dev"])
    inner = ""
    if nested_ok and (name == "nestedUserQueue" and rnd.random() < 0.95 or rnd.random() < 0.12):
        inner = rule(False)
    a = "".join(' %s="%s"' % kv for kv in attrs.items())
    return "<rule%s>%s</rule>" % (a, inner) if inner else "<rule%s/>" % a

def policy():
    if rnd.random() < 0.04:
        return "<queuePlacementPolicy/>"
    if rnd.random() < 0.03:
        return "<queuePlacementPolicy>\n  </queuePlacementPolicy>"
    rs = [rule() for _ in range(rnd.randint(1, 4))]
    if rnd.random() < 0.85:  # most policies end the way Hadoop wants
        rs = [r for r in rs if 'name="reject"' not in r and 'name="default"' not in r][:3]
        rs.append(rnd.choice(['<rule name="default"/>', '<rule name="reject"/>', '<rule name="default" queue="shared"/>', '<rule name="user"/>', '<rule name="default" create="false" queue="dev"/>']))
    return "<queuePlacementPolicy>\n    " + "\n    ".join(rs) + "\n  </queuePlacementPolicy>"

for i in range(N):
    qs = tree(0)
    if rnd.random() < 0.45:  # the file's own root queue, with ACLs that do not let everyone in
        els = ["<aclSubmitApps>%s</aclSubmitApps>" % rnd.choice([" ", "admin", " etl", "alice"])]
        if rnd.random() < 0.5:
            els.append("<aclAdministerApps>%s</aclAdministerApps>" % rnd.choice([" ", "ops", " users"]))
        if rnd.random() < 0.15:
            els.append("<schedulingPolicy>%s</schedulingPolicy>" % rnd.choice(["drf", "fair"]))
        rootq = {"name": "root", "children": qs, "attrs": {}, "els": els}
        body = render([rootq], "  ")
    else:
        body = render(qs, "  ")
    if rnd.random() < 0.15:
        body += "  <defaultQueueSchedulingPolicy>%s</defaultQueueSchedulingPolicy>\n" % rnd.choice(["drf", "fair", "DRF", "fifo", "drf"])
    if rnd.random() < 0.75:
        body += "  " + policy() + "\n"
    files = {"fair-scheduler.xml": '<?xml version="1.0"?>\n<allocations>\n' + body + "</allocations>\n"}
    if rnd.random() < 0.93:
        props = [("yarn.resourcemanager.scheduler.class", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler")]
        for k, vals in [("yarn.acl.enable", ["true", "false", "TRUE"]), ("yarn.scheduler.fair.allow-undeclared-pools", ["true", "false", "False", "junk"]),
                        ("yarn.scheduler.fair.user-as-default-queue", ["true", "false"])]:
            if rnd.random() < 0.6:
                props.append((k, rnd.choice(vals)))
        files["yarn-site.xml"] = '<?xml version="1.0"?>\n<configuration>\n' + "".join(
            "  <property><name>%s</name><value>%s</value></property>\n" % kv for kv in props) + "</configuration>\n"
    ps = paths(qs, "root")
    qsn = []
    for _ in range(12):
        r = rnd.random()
        if r < 0.3:
            q = None
        elif r < 0.4:
            q = "default"
        elif r < 0.75 and ps:
            q = rnd.choice(ps)
            if rnd.random() < 0.4:
                q = q[len("root."):]
        else:
            q = rnd.choice(["nosuch", "root.users.x", "users.carol", "a..b", "root.a. b", ".x", "prod.", "root", "alice", "dev.new.deep"])
        gs = rnd.sample(GROUPS, rnd.choice([0, 1, 1, 2, 3]))
        qsn.append({"user": rnd.choice(USERS), "groups": gs, "queue": q})
    print(json.dumps({"id": "fs%d-%d" % (SEED, i), "files": files, "questions": qsn}))
