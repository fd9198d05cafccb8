package main

import "flag"

var update = flag.Bool("update", false, "rewrite expected output in testscript files and golden files")
