"""The JSON Schema of every command's ``--format json`` document, one file per command
(``<command>.schema.json``, draft 2020-12), read with ``cardsim.cli.output.schema_path``. They are
package data (pyproject.toml) and are described in docs/json.md."""
