package lsp

// This file is one document version's way from its text to its
// diagnostics: analysed once at a time, published unless a newer version
// came meanwhile.

// publish lints a document's current version and publishes its
// diagnostics, unless a newer version came meanwhile (its own turn
// publishes).
func (s *Server) publish(uri string) {
	d, an := s.analyze(uri)
	if an == nil {
		return
	}
	diags := an.diagnostics(d, s.opts.RulesURL)
	s.mu.Lock()
	current := s.docs[uri] == d && d.version == an.version
	s.mu.Unlock()
	if !current {
		return
	}
	v := an.version
	_ = s.out.publish(PublishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: diags})
}

// analyze returns a document and the analysis of its current version,
// computing it when needed; nil when the document is not open.
func (s *Server) analyze(uri string) (*document, *analysis) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		s.mu.Unlock()
		return nil, nil
	}
	for d.busy != nil && d.busyFor == d.version {
		wait := d.busy
		s.mu.Unlock()
		<-wait
		s.mu.Lock()
	}
	if an := d.an; an != nil && an.version == d.version {
		s.mu.Unlock()
		return d, an
	}
	if d.text == nil {
		// the version's text and line index, built once: a burst of
		// changes builds it for the version that is linted only
		d.text = newText(d.buf.String(), s.enc)
	}
	t, version := d.text, d.version
	previous := d.previous // the last version's parse, for an edit inside a value
	done := make(chan struct{})
	d.busy, d.busyFor = done, version
	s.mu.Unlock()
	var an *analysis
	defer func() {
		s.mu.Lock()
		if an != nil && d.version == version {
			d.an, d.previous = an, nil
		}
		if d.busy == done {
			d.busy = nil
		}
		close(done) // even if the analysis panicked: no request waits for ever
		s.mu.Unlock()
	}()
	an = analyze(d.path, t, version, s.settings, previous)
	return d, an
}
