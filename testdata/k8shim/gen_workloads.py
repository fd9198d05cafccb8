"""Generates workload requests for the workload harness (a copy of workload_harness_test.go beside
yunikorn-k8shim's pkg/admission, see README.md): a Deployment, CronJob, Job, ReplicaSet, StatefulSet or
DaemonSet created by a user, with settings that trust its controllers or not, a template that carries
a user.info annotation or none, labels, and a namespace the controller processes or bypasses. The
harness runs the admission controller's own mutate on each object Kubernetes creates in turn.

usage: gen_workloads.py N SEED > cases.jsonl"""
import json, random, sys

N, SEED = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(SEED)
SYS = ["", "^system:serviceaccount:kube-system:", "^system:serviceaccount:kube-system:(job|replicaset)-controller$",
       "^system:serviceaccount:kube-system:(cronjob|job)-controller$", "^system:serviceaccount:kube-system:deployment-controller$,^system:serviceaccount:kube-system:replicaset-controller$",
       "^nobody$"]
for i in range(N):
    data = {}
    s = rnd.choice(SYS)
    if s:
        data["admissionController.accessControl.systemUsers"] = s
    if rnd.random() < 0.3:
        data["admissionController.accessControl.externalUsers"] = rnd.choice(["^alice$", "^bob$", ".*"])
    if rnd.random() < 0.2:
        data["admissionController.accessControl.externalGroups"] = rnd.choice(["^dev$", "^system:serviceaccounts$"])
    if rnd.random() < 0.2:
        data["admissionController.accessControl.trustControllers"] = rnd.choice(["true", "false"])
    if rnd.random() < 0.1:
        data["admissionController.accessControl.bypassAuth"] = "true"
    if rnd.random() < 0.15:
        data["admissionController.filtering.labelNamespaces"] = rnd.choice(["^team-a$", "^other$"])
    ann = rnd.choice([None, None, '{"user":"bob","groups":["g"]}', '{"user":"carol"}', "not json"])
    c = {"id": "w%d" % i, "data": data, "namespace": rnd.choice(["team-a", "team-a", "kube-system"]),
         "kind": rnd.choice(["Deployment", "CronJob", "Job", "ReplicaSet", "StatefulSet", "DaemonSet"]),
         "submitter": rnd.choice(["alice", "alice", "bob", "system:serviceaccount:kube-system:deployment-controller"]),
         "submitterGroups": rnd.choice([["dev"], [], ["system:authenticated"]]),
         "annotation": ann, "labels": rnd.choice([{}, {}, {"applicationId": "app-1"}]), "podNamesScheduler": rnd.random() < 0.5}
    print(json.dumps(c))
