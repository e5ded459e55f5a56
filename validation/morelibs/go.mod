module example.com/morelibs

go 1.26.0

require (
	github.com/DataDog/datadog-go/v5 v5.9.1
	github.com/VictoriaMetrics/fastcache v1.13.2
	github.com/VictoriaMetrics/metrics v1.45.0
	github.com/Workiva/go-datastructures v1.1.7
	github.com/Yiling-J/theine-go v0.6.3
	github.com/alitto/pond/v2 v2.7.1
	github.com/allegro/bigcache/v3 v3.1.0
	github.com/alphadose/haxmap v1.4.0
	github.com/apex/log v1.9.0
	github.com/asaskevich/EventBus v0.0.0-20200907212545-49d423059eef
	github.com/bits-and-blooms/bloom/v3 v3.7.1
	github.com/bluele/gcache v0.0.2
	github.com/bwmarrin/snowflake v0.3.0
	github.com/coocood/freecache v1.2.7
	github.com/cskr/pubsub/v2 v2.0.2
	github.com/deckarep/golang-set/v2 v2.9.0
	github.com/dgraph-io/ristretto/v2 v2.4.2
	github.com/eapache/go-resiliency v1.7.0
	github.com/elastic/go-freelru v0.16.0
	github.com/failsafe-go/failsafe-go v0.9.8
	github.com/fatih/pool v3.0.0+incompatible
	github.com/gammazero/workerpool v1.3.0
	github.com/go-chi/httprate v0.16.1
	github.com/go-kit/log v0.2.1
	github.com/golang/groupcache v0.0.0-20241129210726-2c02b8208cf8
	github.com/google/uuid v1.6.0
	github.com/hashicorp/go-hclog v1.6.3
	github.com/hashicorp/go-memdb v1.3.5
	github.com/hashicorp/go-metrics v0.7.0
	github.com/hashicorp/golang-lru/arc/v2 v2.0.7
	github.com/hashicorp/golang-lru/v2 v2.0.7
	github.com/jackc/puddle/v2 v2.2.3
	github.com/jellydator/ttlcache/v3 v3.4.1
	github.com/jolestar/go-commons-pool/v2 v2.1.2
	github.com/josharian/intern v1.0.0
	github.com/juju/ratelimit v1.0.2
	github.com/karlseguin/ccache/v3 v3.0.5
	github.com/klauspost/compress v1.20.1
	github.com/maypok86/otter/v2 v2.4.0
	github.com/muesli/cache2go v0.0.0-20221011235721-518229cd8021
	github.com/oklog/ulid/v2 v2.1.2
	github.com/oxtoacart/bpool v0.0.0-20190530202638-03653db5a59c
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/patrickmn/go-cache v2.1.0+incompatible
	github.com/paulbellamy/ratecounter v0.2.0
	github.com/prometheus/client_golang v1.25.0
	github.com/puzpuzpuz/xsync/v4 v4.5.0
	github.com/rs/xid v1.6.0
	github.com/rs/zerolog v1.35.1
	github.com/segmentio/ksuid v1.0.4
	github.com/sethvargo/go-limiter v0.7.1
	github.com/sony/gobreaker/v2 v2.4.0
	github.com/sony/sonyflake v1.2.0
	github.com/sourcegraph/conc v0.3.0
	github.com/throttled/throttled/v2 v2.15.0
	github.com/tidwall/btree v1.8.2
	github.com/tidwall/buntdb v1.3.0
	github.com/uber-go/tally v3.3.15+incompatible
	github.com/ulule/limiter/v3 v3.11.2
	github.com/valyala/bytebufferpool v1.0.0
	github.com/zhangyunhao116/skipmap v0.10.1
	go.opentelemetry.io/otel v1.47.0
	go.opentelemetry.io/otel/metric v1.47.0
	go.opentelemetry.io/otel/sdk/metric v1.47.0
	go.uber.org/ratelimit v0.3.1
	go.uber.org/zap v1.28.0
	golang.org/x/sync v0.25.0
)

require (
	github.com/Microsoft/go-winio v0.6.2 // indirect
	github.com/benbjohnson/clock v1.3.0 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/fatih/color v1.13.0 // indirect
	github.com/gammazero/deque v1.2.2 // indirect
	github.com/go-logfmt/logfmt v0.5.1 // indirect
	github.com/go-logr/logr v1.4.4 // indirect
	github.com/go-logr/stdr v1.2.2 // indirect
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/golang-lru v0.5.4 // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/prometheus/client_model v0.6.3 // indirect
	github.com/prometheus/common v0.72.0 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	github.com/tidwall/gjson v1.14.3 // indirect
	github.com/tidwall/grect v0.1.4 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	github.com/tidwall/rtred v0.1.2 // indirect
	github.com/tidwall/tinyqueue v0.1.1 // indirect
	github.com/valyala/fastrand v1.1.0 // indirect
	github.com/valyala/histogram v1.2.0 // indirect
	github.com/zeebo/xxh3 v1.0.2 // indirect
	github.com/zhangyunhao116/fastrand v0.3.0 // indirect
	go.mongodb.org/mongo-driver v1.17.4 // indirect
	go.opentelemetry.io/auto/sdk v1.2.1 // indirect
	go.opentelemetry.io/otel/log v1.47.0 // indirect
	go.opentelemetry.io/otel/sdk v1.47.0 // indirect
	go.opentelemetry.io/otel/trace v1.47.0 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	golang.org/x/exp v0.0.0-20221031165847-c99f073a8326 // indirect
	golang.org/x/sys v0.48.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
