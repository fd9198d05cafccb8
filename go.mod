module github.com/aclint/aclint

go 1.26.8

require (
	github.com/fatih/color v1.19.0
	github.com/mattn/go-isatty v0.0.24
	github.com/spf13/cobra v1.10.2
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/sys v0.42.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
