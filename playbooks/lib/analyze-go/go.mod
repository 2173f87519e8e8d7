module dba-lab/analyze-go

go 1.21
