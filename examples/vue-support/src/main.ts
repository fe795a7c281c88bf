import { createApp } from 'vue'
import '../../../renderers/react/styles.css'
import '../../react-support/src/page.css'
import App from './App.vue'

// chatrail/vue's markup is chatrail/react's, so the same stylesheet (light and dark) draws it.
createApp(App).mount('#app')
