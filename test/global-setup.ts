// Services shared by the whole test run are started here (the Kafka broker, see scripts/kafka).
export default function setup(): void {}
