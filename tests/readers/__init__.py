"""The reader link: protocol v1, serial and MQTT links, tap order, broker accounts, and the
``readers`` subcommands."""
