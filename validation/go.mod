module github.com/brewput/brewput/validation

go 1.26.0

require (
	github.com/brewput/brewput v0.0.0-00010101000000-000000000000
	golang.org/x/exp v0.0.0-20260824195058-e88cd73687aa
)

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0 // indirect
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sys v0.49.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/brewput/brewput => ../
