package main

import (
	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/miniswe"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// fieldsFlags read any per-step JSONL, CSV or TSV through a field map
// (docs/sources.md, "Any per-step JSONL", "Per-step tables").
type fieldsFlags struct{ fields, file, outcomes string }

func (f *fieldsFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.fields, "fields", "", "read JSONL of one object per step, or CSV or TSV of one row per step, through this field map, asked before the known formats: "+
		"score=KEY (the score after the step) or reward=KEY (what the step adds to it), and any of turn, action, room, response, error, tokens, calls, restart, restart_marker, death_marker, episode, max_score, scored=last|best "+
		"(e.g. turn=Step,score=Score,tokens=Token Usage; info.score for a nested key, or a column of that name; tokens=a+b adds two members)")
	fs.StringVar(&f.file, "fields-file", "", "a TOML file of the same keys (score = \"Score\"), for a field map used again and again")
	fs.StringVar(&f.outcomes, "outcomes", "", "a SWE-bench evaluation report (resolved_ids, unresolved_ids): the results of mini-swe-agent's runs, by instance (without it their results are unknown)")
}

// sources are the sources to ask of each input: the registry's, after the
// field map's when one is given.
func (f *fieldsFlags) sources() (*corpus.Sources, error) {
	srcs := corpus.Registry()
	if f.outcomes != "" {
		outcomes, err := miniswe.LoadOutcomes(f.outcomes)
		if err != nil {
			return nil, usageError("--outcomes: %v", err)
		}
		for i, s := range srcs.Files {
			if _, ok := s.(miniswe.Source); ok {
				srcs.Files[i] = miniswe.Source{Outcomes: outcomes}
			}
		}
	}
	var fields steps.Fields
	var err error
	switch {
	case f.fields != "" && f.file != "":
		return nil, usageError("give --fields or --fields-file, not both")
	case f.fields != "":
		if fields, err = steps.ParseFields(f.fields); err != nil {
			return nil, usageError("--fields: %v", err)
		}
	case f.file != "":
		if fields, err = steps.LoadFields(f.file); err != nil {
			return nil, usageError("--fields-file: %v", err)
		}
	default:
		return srcs, nil
	}
	srcs.Files = append([]source.Source{steps.Source{Fields: fields}, steps.Table{Fields: fields}}, srcs.Files...)
	return srcs, nil
}
