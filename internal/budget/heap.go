package budget

import "runtime"

// LiveHeap is what is still reachable after a collection.
func LiveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Meter counts what a command writes and samples the live heap while it
// writes, for the tests that hold an output to being streamed.
type Meter struct {
	Bytes, Writes int
	Peak          uint64 // the most live heap seen
}

func (m *Meter) Write(p []byte) (int, error) {
	m.Bytes += len(p)
	m.Writes++
	if m.Writes == 1 || m.Writes%2000 == 0 {
		m.Peak = max(m.Peak, LiveHeap())
	}
	return len(p), nil
}
