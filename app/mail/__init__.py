"""Email: outgoing turn emails and notices (compose, transport), incoming orders (inbound)."""
