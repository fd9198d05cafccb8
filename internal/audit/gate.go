package audit

import "github.com/aclint/aclint/internal/engine"

// Gate is what a system in front of another decides before any request
// reaches it: Kubernetes RBAC decides who may create pods, or workloads
// whose controllers make them, in which namespace, and only such pods
// reach YuniKorn. The system behind asks it through this interface, so
// that neither imports the other: the command line loads the gate from
// its own inputs (Gatekeeper) and hands it to the question (GateTaker).
type Gate interface {
	// Name names the gate in sentences: "Kubernetes RBAC".
	Name() string
	// Namespaces are the namespaces the gate's inputs show exist (a
	// Namespace object, or objects put in it), sorted by name.
	Namespaces() []GateNamespace
	// Creates answers whether subject may put pods in namespace.
	Creates(subject GateSubject, namespace string) Creation
	// Subjects are the subjects the gate's inputs name (users, groups,
	// service accounts), sorted, for a listing of who gets in.
	Subjects() []GateSubject
}

// GateSubject is who asks, as the gate's authenticator gives it: a user
// and groups. Kind and Name say what the gate's inputs call it ("User",
// "Group", "ServiceAccount"), for a listing; a group's member is asked as
// a user no input names, with that group.
type GateSubject struct {
	Kind, Name string
	User       string
	Groups     []string
}

// GateNamespace is one namespace, with what a pod placed in it is read
// with: its labels and annotations.
type GateNamespace struct {
	Name                string
	Labels, Annotations map[string]string
	// Declared: a Namespace object of the inputs holds it (its labels and
	// annotations are then known); otherwise only objects in it are.
	Declared bool
	Pos      engine.Position
}

// Creation is the gate's answer: what the subject may create there that
// makes pods (Kind, as the gate names it: "pods", "deployments.apps";
// Workload, the object's kind: "" for a pod, "Deployment"), and what
// allows it, in a sentence with positions (By) and where (Pos). Unknown
// says why the answer is not known (a role no input has).
type Creation struct {
	Allowed        bool
	Kind, Workload string
	By             string
	// Binding names what allows it in a few words ("RoleBinding
	// prod/deployers"), for a line that cannot hold By.
	Binding string
	Pos     engine.Position
	Unknown string
}

// Gatekeeper is a System whose inputs load as a Gate for another system's
// questions: Gates says which system it stands in front of. LoadGate
// returns a nil Gate when the inputs hold nothing that gates (Namespace
// objects alone): the question is then answered as without them.
type Gatekeeper interface {
	Gates(system string) bool
	LoadGate(inputs []*engine.Input, opts engine.Options) (Gate, error)
}

// GateTaker is a question that composes its answers with a gate: given
// one, its answer follows the whole path, the gate first. An error says
// this question does not compose (it would leave the gate out).
type GateTaker interface {
	TakeGate(g Gate) error
}
