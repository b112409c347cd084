"""The link between the bag readers and the hub: protocol v1 over USB serial or MQTT.

Start with :class:`~companion.readers.ingest.Ingest` (parse, deduplicate, store, ack), fed
by :class:`~companion.readers.serial_link.SerialLink` or
:class:`~companion.readers.mqtt_link.MqttLink`. ``docs/protocol.md`` is the wire format.
"""
