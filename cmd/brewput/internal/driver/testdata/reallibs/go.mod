module example.com/reallibs

go 1.26.0

require (
	github.com/orcaman/concurrent-map/v2 v2.0.1
	github.com/rcrowley/go-metrics v0.0.0-20250401214520-65e299d6c5c9
	github.com/sirupsen/logrus v1.10.2
	golang.org/x/time v0.16.0
)

require golang.org/x/sys v0.13.0 // indirect
