module example.com/morelibs

go 1.26.0

require (
	github.com/VictoriaMetrics/fastcache v1.13.2
	github.com/allegro/bigcache/v3 v3.1.0
	github.com/hashicorp/golang-lru/v2 v2.0.7
	github.com/jackc/puddle/v2 v2.2.3
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/patrickmn/go-cache v2.1.0+incompatible
	github.com/prometheus/client_golang v1.25.0
	github.com/rs/zerolog v1.35.1
	github.com/sony/gobreaker/v2 v2.4.0
	go.uber.org/ratelimit v0.3.1
	go.uber.org/zap v1.28.0
	golang.org/x/sync v0.25.0
)

require (
	github.com/benbjohnson/clock v1.3.0 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/client_model v0.6.3 // indirect
	github.com/prometheus/common v0.72.0 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
