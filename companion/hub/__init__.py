"""The running hub: tables and readers (:mod:`.hub`) behind Flask and Socket.IO (:mod:`.app`)."""
